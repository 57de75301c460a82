import { load, startBenchServer } from '/work/main/bench/harness.js';
const s = await startBenchServer();
const auth = { authorization: `Bearer ${s.adminToken}` };
for (const p of ['/api/health', '/api/auth/me', '/api/products?page=1&size=20']) {
  const r = await load({ url: s.url, path: p, headers: auth, duration: 3 });
  console.log(p, Math.round(r.rps), r.p99);
}
await s.close();
