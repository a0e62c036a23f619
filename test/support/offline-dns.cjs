// Loaded with `node --require` in CLI tests that name a non-local Ollama host (to see the
// "not on this machine" warning): every name lookup other than localhost fails at once with
// ENOTFOUND, so such a test never sends a DNS query or a packet off this machine.
const dns = require('node:dns');
const original = dns.lookup;
dns.lookup = function lookup(hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  if (hostname === 'localhost' || /^127\./.test(hostname) || hostname === '::1') return original.apply(this, arguments);
  const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (offline test: no lookup was made)`), {
    code: 'ENOTFOUND',
    errno: -3008,
    syscall: 'getaddrinfo',
    hostname,
  });
  process.nextTick(cb, err);
};
