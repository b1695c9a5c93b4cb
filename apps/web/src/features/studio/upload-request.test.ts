// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { fileProgress, uploadRequest, type UploadProgress } from './upload-request';

type Handler = ((event: ProgressEvent) => void) | null;

/** An XMLHttpRequest stand-in that records what was sent and lets the test drive the events. */
class FakeRequest {
  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  timeout = 0;
  status = 0;
  responseText = '';
  body: unknown = null;
  aborted = false;
  upload: { onprogress: Handler } = { onprogress: null };
  onload: Handler = null;
  onerror: Handler = null;
  ontimeout: Handler = null;
  onabort: Handler = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.(new ProgressEvent('abort'));
  }

  progress(loaded: number, total: number) {
    this.upload.onprogress?.(new ProgressEvent('progress', { lengthComputable: true, loaded, total }));
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.(new ProgressEvent('load'));
  }
}

function start(form = new FormData(), extra: { signal?: AbortSignal } = {}) {
  const fake = new FakeRequest();
  const updates: UploadProgress[] = [];
  const result = uploadRequest<{ message: string }>({
    url: '/songs',
    method: 'POST',
    form,
    signal: extra.signal,
    onProgress: (progress) => updates.push(progress),
    createRequest: () => fake as unknown as XMLHttpRequest,
  });
  return { fake, updates, result };
}

const file = (name: string, size: number, type: string) => new File([new Uint8Array(size)], name, { type });

describe('uploadRequest', () => {
  it('sends the form with credentials to the API root and resolves with the JSON answer', async () => {
    const form = new FormData();
    form.append('title', 'Night Drive');
    const { fake, result } = start(form);
    expect(fake.method).toBe('POST');
    expect(fake.url).toBe('/api/songs');
    expect(fake.withCredentials).toBe(true);
    expect(fake.timeout).toBe(300_000);
    expect(fake.headers.Accept).toBe('application/json');
    expect(fake.body).toBe(form);
    fake.respond(201, { message: 'Song created successfully' });
    await expect(result).resolves.toEqual({ message: 'Song created successfully' });
  });

  it('reports overall and per-file progress', async () => {
    const form = new FormData();
    form.append('title', 'x');
    form.append('audio', file('a.wav', 1000, 'audio/wav'));
    form.append('coverImage', file('c.png', 500, 'image/png'));
    const { fake, updates, result } = start(form);
    // 100 bytes of boundaries and text fields go first, then the audio, then the cover.
    fake.progress(600, 1600);
    fake.progress(1350, 1600);
    fake.progress(1600, 1600);
    fake.respond(201, { message: 'ok' });
    await result;
    expect(updates.map((update) => Math.round(update.fraction * 100))).toEqual([38, 84, 100]);
    expect(updates[0]?.files).toEqual({ audio: 0.5, coverImage: 0 });
    expect(updates[1]?.files).toEqual({ audio: 1, coverImage: 0.5 });
    expect(updates[2]?.files).toEqual({ audio: 1, coverImage: 1 });
  });

  it('ignores progress events without a known length', async () => {
    const { fake, updates, result } = start();
    fake.upload.onprogress?.(new ProgressEvent('progress', { lengthComputable: false, loaded: 10 }));
    fake.respond(200, { message: 'ok' });
    await result;
    expect(updates).toEqual([]);
  });

  it("rejects with the server's message, code and status", async () => {
    const { fake, result } = start();
    fake.respond(415, { message: 'audio: the file is not audio', code: 'UNSUPPORTED_MEDIA_TYPE' });
    const error = await result.catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'audio: the file is not audio',
      body: { message: 'audio: the file is not audio', code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
  });

  it('rejects with a status text when the error body is not JSON', async () => {
    const { fake, result } = start();
    fake.respond(502, '<html>Bad gateway</html>');
    await expect(result).rejects.toMatchObject({
      status: 502,
      code: 'HTTP_502',
      message: 'Request failed with status 502',
    });
  });

  it('rejects as a network error when the request fails', async () => {
    const { fake, result } = start();
    fake.onerror?.(new ProgressEvent('error'));
    await expect(result).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR', networkError: true });
  });

  it('rejects on timeout', async () => {
    const { fake, result } = start();
    fake.ontimeout?.(new ProgressEvent('timeout'));
    await expect(result).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('aborts the request when the signal fires', async () => {
    const controller = new AbortController();
    const { fake, result } = start(new FormData(), { signal: controller.signal });
    controller.abort();
    await expect(result).rejects.toMatchObject({ code: 'ABORTED' });
    expect(fake.aborted).toBe(true);
  });

  it('does not send when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const { fake, result } = start(new FormData(), { signal: controller.signal });
    await expect(result).rejects.toMatchObject({ code: 'ABORTED' });
    expect(fake.body).toBeNull();
  });
});

describe('fileProgress', () => {
  it('gives files without bytes full progress and clamps to 0..1', () => {
    expect(fileProgress([{ field: 'audio', size: 0 }], 0, 10)).toEqual({ audio: 1 });
    expect(fileProgress([{ field: 'audio', size: 100 }], 5, 150)).toEqual({ audio: 0 });
    expect(fileProgress([{ field: 'audio', size: 100 }], 500, 150)).toEqual({ audio: 1 });
  });
});
