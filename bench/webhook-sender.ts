/**
 * Sends signed webhook deliveries to one URL with a fixed number in flight and prints one JSON line of figures.
 * It runs as its own process (like autocannon in the other benchmarks), so the client never shares the server's
 * event loop: `tsx webhook-sender.ts <deliveries.json> <url> <concurrency>`.
 */
import { readFile } from 'node:fs/promises';

interface Delivery {
  body: string;
  headers: Record<string, string>;
}

async function main() {
  const [file, url, concurrencyArg] = process.argv.slice(2);
  if (!file || !url) throw new Error('usage: webhook-sender <deliveries.json> <url> [concurrency]');
  const deliveries = JSON.parse(await readFile(file, 'utf8')) as Delivery[];
  const concurrency = Number(concurrencyArg ?? 16);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      const delivery = deliveries[next++];
      if (!delivery) return;
      const sent = performance.now();
      let status = 'network error';
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...delivery.headers },
          body: delivery.body,
        });
        await response.arrayBuffer();
        status = String(response.status);
      } catch {
        // counted below as a network error
      }
      latencies.push(performance.now() - sent);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pick = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? null;
  process.stdout.write(
    `${JSON.stringify({ count: latencies.length, seconds, p50Ms: pick(0.5), p99Ms: pick(0.99), statuses })}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
