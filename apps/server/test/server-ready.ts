/**
 * Whether the server at `baseUrl` answers and serves its catalogue. A first start listens at once and prepares the
 * demo catalogue afterwards (`/api/health` says `catalogue.state: 'preparing'`, other API calls answer 503), so
 * whoever starts a server process to use it waits for `ready`, not merely for a health answer.
 */
export async function servesCatalogue(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/api/health`);
    if (!res.ok) return false;
    const body = (await res.json()) as { catalogue?: { state?: string } };
    return body.catalogue?.state === 'ready';
  } catch {
    return false; // not listening yet
  }
}
