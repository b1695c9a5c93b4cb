/** Text made safe inside HTML (element content and quoted attributes): & < > " ' become character references. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
