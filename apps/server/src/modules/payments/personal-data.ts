/**
 * Keys under which gateways put a person's details in the objects they send (Stripe: receipt_email,
 * billing_details, shipping, customer_details; Razorpay: email, contact; PayPal: payer, email_address, name,
 * address). Their values are dropped whole from a deleted account's stored payloads.
 */
const PERSONAL_KEYS = new Set([
  'email',
  'receipt_email',
  'customer_email',
  'email_address',
  'billing_details',
  'customer_details',
  'shipping',
  'shipping_details',
  'address',
  'phone',
  'contact',
  'payer',
  'customer_name',
]);

export const ANONYMISED = '[deleted account]';

/**
 * A gateway payload with a deleted account's personal data taken out: values under personal keys become null, and
 * any string holding the account's id or e-mail (a metadata field, a description) has it replaced by ANONYMISED.
 * Ids of the gateway's own objects, amounts, currencies and dates stay: they are the accounting record.
 */
export function anonymisePayload(value: unknown, account: { id: string; email: string }): unknown {
  const email = account.email.toLowerCase();
  const scrub = (text: string): string => {
    let out = text.split(account.id).join(ANONYMISED);
    if (email) {
      let at = out.toLowerCase().indexOf(email);
      while (at !== -1) {
        out = `${out.slice(0, at)}${ANONYMISED}${out.slice(at + email.length)}`;
        at = out.toLowerCase().indexOf(email, at + ANONYMISED.length);
      }
    }
    return out;
  };
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return scrub(node);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') {
      return Object.fromEntries(
        Object.entries(node).map(([key, child]) => [key, PERSONAL_KEYS.has(key) ? null : walk(child)]),
      );
    }
    return node;
  };
  return walk(value);
}
