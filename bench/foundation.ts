import { load, report, startBenchServer, type BenchContext } from './harness.js';
import { hashPassword } from '../server/auth/passwords.js';
import { now } from '../server/db/time.js';
import type { Knex } from 'knex';

/** Issue 2: product list, course detail and login against a seeded database (1,000 users, 5,000 products, 500 courses). */
export default async function foundation({ baseline }: BenchContext): Promise<void> {
  const server = await startBenchServer({ seed });
  try {
    const token = await server.login('user1', 'bench-user-pass');
    const auth = { authorization: `Bearer ${token}` };

    const list = await load({ url: server.url, path: '/api/products?category=capital_consulting&page=1&size=20', headers: auth });
    report('GET /api/products?page=1&size=20', list, baseline, '>= 40 %, p99 < 25 ms');
    const full = await load({ url: server.url, path: '/api/products?category=capital_consulting', headers: auth, duration: 3 });
    report('GET /api/products (all 2,250 matches, ~1 MB)', full, baseline);
    const detail = await load({ url: server.url, path: '/api/courses/250', headers: auth });
    report('GET /api/courses/{id}', detail, baseline);
    const loginWhileListing = load({ url: server.url, path: '/api/products?page=1&size=20', headers: auth, connections: 8, duration: 5 });
    const login = await load({ url: server.url, method: 'POST', path: '/api/auth/login', body: { username: 'user2', password: 'bench-user-pass' }, connections: 32, duration: 5 });
    report('POST /api/auth/login (argon2id, thread pool)', login, baseline, 'hash-bound');
    report('  product page while logins run (8 conns)', await loginWhileListing, baseline, 'not blocked');
  } finally {
    await server.close();
  }
}

async function seed(db: Knex): Promise<void> {
  const stamp = now();
  const hash = await hashPassword('bench-user-pass');
  const users = Array.from({ length: 1000 }, (_, i) => ({
    username: `user${i}`, password_hash: hash, full_name: `User ${i}`, role: 'employee', status: 'active', department: `Branch ${i % 20}`, created_at: stamp, updated_at: stamp,
  }));
  const products = Array.from({ length: 5000 }, (_, i) => ({
    code: `P${i}`, name: `Product ${i}`, category: i % 2 ? 'capital_consulting' : 'insurance', status: i % 10 ? 'active' : 'inactive',
    summary: `Summary of product ${i}`, commission_rate: 1.5, attributes: '{}', created_at: stamp, updated_at: stamp,
  }));
  const courses = Array.from({ length: 500 }, (_, i) => ({ title: `Course ${i}`, category: 'capital_script', status: 'active', summary: `Course ${i}`, content: 'x'.repeat(2000), created_at: stamp, updated_at: stamp }));
  await db.batchInsert('users', users, 200);
  await db.batchInsert('products', products, 200);
  await db.batchInsert('courses', courses, 200);
  const links = Array.from({ length: 500 }, (_, c) => Array.from({ length: 5 }, (_, k) => ({ course_id: c + 1, product_id: c * 5 + k + 1, sort_order: k }))).flat();
  await db.batchInsert('course_products', links, 500);
}
