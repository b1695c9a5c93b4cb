const loading = new Map<string, Promise<void>>();

/**
 * Loads a provider's browser script once (Razorpay Checkout, or a gateway's stand-in from the local emulator).
 * A failed load is forgotten so the next attempt retries.
 */
export function loadScriptOnce(src: string): Promise<void> {
  const known = loading.get(src);
  if (known) return known;
  const promise = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading.delete(src);
      script.remove();
      reject(new Error('The payment provider could not be reached. Check your connection and try again.'));
    };
    document.head.appendChild(script);
  });
  loading.set(src, promise);
  return promise;
}
