/**
 * The Content-Security-Policy of every Impulse window: only the app's own
 * scripts (plus WebAssembly compilation for the physics engine), no remote
 * content, no plugins, no framing. Electron sends it as a response header;
 * the HTTP and Playwright bridges send the same header; `renderer/index.html`
 * carries it as a `<meta http-equiv="Content-Security-Policy">` too.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' data: blob:",
  "worker-src 'self' blob:",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
