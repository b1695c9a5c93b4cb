/** The banner every emulator page shows. */
export const TEST_MODE_BANNER = 'Test mode — local gateway emulator, no money moves';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A minimal, readable page in the emulator's own style (each provider tints it). */
export function page(title: string, accent: string, body: string, script = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;background:#f6f7fb;color:#1a1b25}
.banner{background:#fff3c4;color:#5b4300;padding:8px 16px;font-size:13px;font-weight:600;text-align:center}
main{max-width:420px;margin:0 auto;padding:20px 16px}h1{font-size:20px;margin:8px 0 4px}.muted{color:#5d6070}
.card{background:#fff;border:1px solid #dfe1ea;border-radius:10px;padding:16px;margin-top:14px}
label{display:block;font-size:13px;font-weight:600;margin:10px 0 4px}input,select{width:100%;padding:10px;border:1px solid #c8cbd8;border-radius:6px;font:inherit}
.row{display:flex;gap:8px}.row>*{flex:1}button{width:100%;margin-top:14px;padding:12px;border:0;border-radius:6px;font:inherit;font-weight:700;cursor:pointer;background:${accent};color:#fff}
button.secondary{background:#e7e9f0;color:#1a1b25}.amount{font-size:26px;font-weight:700;margin-top:6px}.hint{font-size:12px;color:#5d6070;margin-top:8px}
.error{color:#b3261e;font-weight:600;margin-top:10px}
</style></head><body><div class="banner" role="note">${TEST_MODE_BANNER}</div><main>${body}</main>${script ? `<script>${script}</script>` : ''}</body></html>`;
}
