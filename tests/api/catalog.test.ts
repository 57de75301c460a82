import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { startTestServer, type TestServer } from '../support/server.js';

function fileForm(name: string, content: string | Uint8Array, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  return form;
}

async function xlsx(rows: (string | number | null)[][]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Products');
  for (const row of rows) sheet.addRow(row);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

describe('products and courses', () => {
  let s: TestServer;
  let employee: { token: string };
  before(async () => {
    s = await startTestServer();
    employee = await s.user();
  });
  after(() => s.close());
  const admin = () => ({ token: s.adminToken });
  const createProduct = async (body: Record<string, unknown>) => {
    const res = await s.api.post('/api/products', { ...admin(), body });
    assert.equal(res.status, 201, res.text);
    return res.body.data;
  };

  describe('products', () => {
    test('create, read back, list with category and status filters', async () => {
      const a = await createProduct({ name: 'Steady Income Fund', code: 'SIF-01', category: 'capital_consulting', commission_rate: 1.2, attributes: { term: '12 months' } });
      const b = await createProduct({ name: 'Health Cover', code: 'HC-01', category: 'insurance' });
      const c = await createProduct({ name: 'Old Fund', code: 'OF-01', category: 'capital_consulting', status: 'inactive' });
      assert.equal(a.status, 'active');
      assert.equal(a.commission_rate, 1.2);
      assert.deepEqual(a.attributes, { term: '12 months' });
      assert.deepEqual((await s.api.get(`/api/products/${a.id}`, { token: employee.token })).body.data, { ...a, medias: [] });

      const ids = async (query: string) => (await s.api.get(`/api/products${query}`, { token: employee.token })).body.data.map((p: { id: number }) => p.id);
      assert.deepEqual(await ids(''), [a.id, b.id]);
      assert.deepEqual(await ids('?category=capital_consulting'), [a.id]);
      assert.deepEqual(await ids('?category=capital_consulting&status=all'), [a.id, c.id]);
      assert.deepEqual(await ids('?status=inactive'), [c.id]);
      assert.deepEqual(await ids('?status=all&page=2&size=2'), [c.id]);
    });

    test('categories of active products, sorted, for the filter; follows writes at once', async () => {
      const cats = async () => (await s.api.get('/api/products/categories', { token: employee.token })).body.data as string[];
      await createProduct({ name: 'Zeta plan', category: 'zz_cat_b' });
      const hidden = await createProduct({ name: 'Zeta old', category: 'zz_cat_c', status: 'inactive' });
      const later = await createProduct({ name: 'Zeta new', category: 'zz_cat_a' });
      const list = await cats();
      assert.deepEqual(list.filter((c) => c.startsWith('zz_cat_')), ['zz_cat_a', 'zz_cat_b'], 'inactive ones left out');
      assert.deepEqual(list, [...list].sort(), 'sorted');
      assert.ok(!list.includes(''), 'no empty category');
      await s.api.delete(`/api/products/${later.id}`, admin());
      await s.api.put(`/api/products/${hidden.id}`, { ...admin(), body: { status: 'active' } });
      assert.deepEqual((await cats()).filter((c) => c.startsWith('zz_cat_')), ['zz_cat_b', 'zz_cat_c']);
      assert.equal((await s.api.get('/api/products/categories')).status, 401);
    });

    test('unknown id is 404 (never another product); non-numeric id is 400', async () => {
      const res = await s.api.get('/api/products/424242', { token: employee.token });
      assert.equal(res.status, 404);
      assert.equal(res.body.error, 'not_found');
      assert.equal(res.body.data, null);
      assert.equal((await s.api.get('/api/products/abc', { token: employee.token })).status, 400);
      const first = await createProduct({ name: 'Id probe' });
      for (const id of [`0x${first.id.toString(16)}`, `${first.id}e0`, `${first.id}.0`, `%20${first.id}`]) {
        assert.equal((await s.api.get(`/api/products/${id}`, { token: employee.token })).status, 400, `${id} never resolves to product ${first.id}`);
      }
      for (const id of ['0', '-1', '3000000000', '99999999999999999999']) {
        assert.equal((await s.api.get(`/api/products/${id}`, { token: employee.token })).status, 404, `${id} does not exist`);
      }
      assert.equal((await s.api.put('/api/products/424242', { ...admin(), body: { name: 'x' } })).status, 404);
      assert.equal((await s.api.delete('/api/products/424242', admin())).status, 404);
    });

    test('edit changes only the addressed product; delete sets inactive', async () => {
      const p1 = await createProduct({ name: 'P one', code: 'E-1' });
      const p2 = await createProduct({ name: 'P two', code: 'E-2' });
      const edited = await s.api.put(`/api/products/${p1.id}`, { ...admin(), body: { name: 'P one v2', summary: 'New' } });
      assert.equal(edited.status, 200);
      assert.equal(edited.body.data.name, 'P one v2');
      assert.equal(edited.body.data.code, 'E-1');
      assert.deepEqual((await s.api.get(`/api/products/${p2.id}`, admin())).body.data, { ...p2, medias: [] });
      assert.equal((await s.api.put(`/api/products/${p1.id}`, { ...admin(), body: { code: 'E-2' } })).status, 409);
      const deleted = await s.api.delete(`/api/products/${p2.id}`, admin());
      assert.equal(deleted.body.data.status, 'inactive');
      assert.equal((await s.api.get(`/api/products/${p2.id}`, admin())).body.data.status, 'inactive');
      const reactivated = await s.api.put(`/api/products/${p2.id}`, { ...admin(), body: { status: 'active' } });
      assert.equal(reactivated.body.data.status, 'active');
    });

    test('bad product bodies are 400; employees 403; anonymous 401', async () => {
      for (const body of [{}, { name: '' }, { name: 'x', commission_rate: 'high' }, { name: 'x', status: 'gone' }, { name: 42 }]) {
        assert.equal((await s.api.post('/api/products', { ...admin(), body })).status, 400, JSON.stringify(body));
      }
      assert.equal((await s.api.post('/api/products', { token: employee.token, body: { name: 'x' } })).status, 403);
      assert.equal((await s.api.get('/api/products')).status, 401);
    });
  });

  describe('product import', () => {
    test('JSON import creates and updates by code in one go', async () => {
      const file = JSON.stringify([
        { code: 'IMP-1', name: 'Imported one', category: 'capital_consulting', commission_rate: 2 },
        { code: 'SIF-01', name: 'Steady Income Fund (renamed)', category: 'capital_consulting' },
        { name: 'No code product', extra: 'kept' },
      ]);
      const res = await s.api.post('/api/products/import', { ...admin(), form: fileForm('products.json', file) });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual({ ...res.body.data, errors: res.body.data.errors.length }, { dry_run: false, total: 3, valid: 3, created: 2, updated: 1, imported: 3, errors: 0 });
      const list = (await s.api.get('/api/products?status=all', admin())).body.data;
      assert.equal(list.find((p: { code: string }) => p.code === 'SIF-01').name, 'Steady Income Fund (renamed)');
      assert.ok(list.some((p: { code: string }) => p.code === 'IMP-1'));
    });

    test('xlsx import with English and Chinese headers; extra columns become attributes', async () => {
      const book = await xlsx([
        ['产品编码', '产品名称', 'category', 'commission_rate', '期限'],
        ['XL-1', '稳健理财一号', 'capital_consulting', '1.5%', '6个月'],
        ['XL-2', '成长基金', 'capital_consulting', 0.8, null],
      ]);
      const res = await s.api.post('/api/products/import', { ...admin(), form: fileForm('products.xlsx', book) });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.created, 2);
      const list = (await s.api.get('/api/products', admin())).body.data;
      const xl1 = list.find((p: { code: string }) => p.code === 'XL-1');
      assert.equal(xl1.name, '稳健理财一号');
      assert.equal(xl1.commission_rate, 1.5);
      assert.deepEqual(xl1.attributes, { 期限: '6个月' });
    });

    test('any invalid row imports nothing and lists every bad row; dry_run previews the same report', async () => {
      const before = (await s.api.get('/api/products?status=all', admin())).body.data.length;
      const file = JSON.stringify([{ code: 'OK-1', name: 'Fine' }, { code: 'BAD-1' }, { code: 'OK-1', name: 'Duplicate code' }, { name: 'x', commission_rate: 500 }]);
      const res = await s.api.post('/api/products/import', { ...admin(), form: fileForm('bad.json', file) });
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'validation_failed');
      assert.deepEqual(res.body.details.errors.map((e: { row: number }) => e.row), [2, 3, 4]);
      assert.equal((await s.api.get('/api/products?status=all', admin())).body.data.length, before);

      const dry = await s.api.post('/api/products/import?dry_run=true', { ...admin(), form: fileForm('bad.json', file) });
      assert.equal(dry.status, 200);
      assert.equal(dry.body.data.dry_run, true);
      assert.deepEqual(
        dry.body.data.errors.map(({ row, field, code, other_row }: { row: number; field?: string; code: string; other_row?: number }) => ({ row, field, code, other_row })),
        [
          { row: 2, field: 'name', code: 'required', other_row: undefined },
          { row: 3, field: 'code', code: 'duplicate_code', other_row: 1 },
          { row: 4, field: 'commission_rate', code: 'too_big', other_row: undefined },
        ],
        'each problem has a code a client can translate',
      );
      const goodDry = await s.api.post('/api/products/import', { ...admin(), form: fileForm('ok.json', JSON.stringify([{ code: 'DRY-1', name: 'Dry' }]), { dry_run: 'true' }) });
      assert.equal(goodDry.body.data.created, 1);
      assert.equal(goodDry.body.data.imported, 0);
      for (const [query, field] of [['?dry_run=yes', undefined], ['?dry_run=TRUE', undefined], ['', 'maybe']] as const) {
        const unclear = await s.api.post(`/api/products/import${query}`, { ...admin(), form: fileForm('ok.json', JSON.stringify([{ code: 'DRY-2', name: 'Dry' }]), field ? { dry_run: field } : {}) });
        assert.deepEqual([unclear.status, unclear.body.error], [400, 'validation_failed'], `${query}${field ?? ''}: an unclear dry_run imports nothing`);
        assert.match(unclear.body.message, /dry_run/);
      }
      assert.equal((await s.api.get('/api/products?status=all', admin())).body.data.length, before);
    });

    test('unreadable or unsupported files are 400; employees 403', async () => {
      assert.equal((await s.api.post('/api/products/import', { ...admin(), form: fileForm('x.json', '{not json') })).status, 400);
      assert.equal((await s.api.post('/api/products/import', { ...admin(), form: fileForm('x.xlsx', 'not a zip') })).status, 400);
      assert.equal((await s.api.post('/api/products/import', { ...admin(), form: fileForm('x.csv', 'a,b') })).status, 400);
      assert.equal((await s.api.post('/api/products/import', { ...admin(), form: fileForm('x.json', '[]') })).status, 400);
      assert.equal((await s.api.post('/api/products/import', { ...admin(), body: { products: [] } })).status, 400);
      assert.equal((await s.api.post('/api/products/import', { token: employee.token, form: fileForm('x.json', '[]') })).status, 403);
      const tooLarge = await s.api.post('/api/products/import', { ...admin(), form: fileForm('big.json', new Uint8Array(21 * 1024 * 1024)) });
      assert.equal(tooLarge.status, 413);
      assert.equal(tooLarge.body.error, 'payload_too_large');
      const broken = await s.api.post('/api/products/import', { ...admin(), raw: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.json"\r\n\r\n[1', headers: { 'content-type': 'multipart/form-data; boundary=xyz' } });
      assert.equal(broken.status, 400);
    });
  });

  describe('courses', () => {
    test('product binding on create and edit; detail omits inactive products', async () => {
      const p1 = await createProduct({ name: 'Bound A', code: 'B-A' });
      const p2 = await createProduct({ name: 'Bound B', code: 'B-B' });
      const p3 = await createProduct({ name: 'Bound C', code: 'B-C' });
      const created = await s.api.post('/api/courses', { ...admin(), body: { title: 'Selling funds', category: 'capital_script', product_ids: [p1.id, p2.id] } });
      assert.equal(created.status, 201);
      const id = created.body.data.id;
      assert.deepEqual(created.body.data.product_ids, [p1.id, p2.id]);
      assert.deepEqual(created.body.data.products.map((p: { id: number }) => p.id), [p1.id, p2.id]);

      const renamed = await s.api.put(`/api/courses/${id}`, { ...admin(), body: { summary: 'Updated' } });
      assert.deepEqual(renamed.body.data.product_ids, [p1.id, p2.id], 'omitted product_ids keeps bindings');
      const rebound = await s.api.put(`/api/courses/${id}`, { ...admin(), body: { product_ids: [p2.id, p3.id] } });
      assert.deepEqual(rebound.body.data.product_ids, [p2.id, p3.id]);

      await s.api.delete(`/api/products/${p3.id}`, admin());
      const detail = await s.api.get(`/api/courses/${id}`, { token: employee.token });
      assert.deepEqual(detail.body.data.products.map((p: { id: number }) => p.id), [p2.id]);
      assert.deepEqual(detail.body.data.medias, []);
      assert.equal(detail.body.data.title, 'Selling funds');

      const unbound = await s.api.put(`/api/courses/${id}`, { ...admin(), body: { product_ids: [] } });
      assert.deepEqual(unbound.body.data.product_ids, []);

      const bindOne = await s.api.put(`/api/courses/${id}`, { ...admin(), body: { bind_product_ids: [p1.id, p2.id] } });
      assert.deepEqual(bindOne.body.data.product_ids, [p1.id, p2.id], 'bind adds to the set');
      const both = await s.api.put(`/api/courses/${id}?include_inactive=true`, { ...admin(), body: { bind_product_ids: [p2.id, p3.id], unbind_product_ids: [p1.id] } });
      assert.deepEqual(both.body.data.product_ids, [p2.id, p3.id], 'unbind takes off; binding a bound product again changes nothing');
      const unknown = await s.api.put(`/api/courses/${id}`, { ...admin(), body: { bind_product_ids: [987654] } });
      assert.equal(unknown.status, 400, unknown.text);
      assert.deepEqual((await s.api.get(`/api/courses/${id}?include_inactive=true`, admin())).body.data.product_ids, [p2.id, p3.id], 'a refused edit changes nothing');
      const born = await s.api.post('/api/courses', { ...admin(), body: { title: 'Bound at birth', bind_product_ids: [p1.id] } });
      assert.deepEqual(born.body.data.product_ids, [p1.id]);
    });

    test('an inactive product is hidden from every product field of the course; admins see the whole bound set on request', async () => {
      const kept = await createProduct({ name: 'Kept', code: 'HID-K' });
      const retired = await createProduct({ name: 'Retired', code: 'HID-R' });
      const course = (await s.api.post('/api/courses', { ...admin(), body: { title: 'Hiding', product_ids: [retired.id, kept.id] } })).body.data;
      const detail = async (query = '', token = employee.token) => (await s.api.get(`/api/courses/${course.id}${query}`, { token })).body.data;
      const listed = async (query = '', token = employee.token) =>
        (await s.api.get(`/api/courses?size=500${query}`, { token })).body.data.find((c: { id: number }) => c.id === course.id);
      const ids = (list: { id: number }[]) => list.map((p) => p.id);
      assert.deepEqual((await detail()).product_ids, [retired.id, kept.id]);

      assert.equal((await s.api.delete(`/api/products/${retired.id}`, admin())).status, 200);
      for (const token of [employee.token, s.adminToken]) {
        const shown = await detail('', token);
        assert.deepEqual([shown.product_ids, ids(shown.products)], [[kept.id], [kept.id]], 'spec 4.4: inactive products omitted');
        assert.deepEqual((await listed('', token)).product_ids, [kept.id]);
      }
      const whole = await detail('?include_inactive=true', s.adminToken);
      assert.deepEqual([whole.product_ids, ids(whole.products), whole.products.map((p: { status: string }) => p.status)], [[retired.id, kept.id], [retired.id, kept.id], ['inactive', 'active']]);
      assert.deepEqual((await listed('&include_inactive=true', s.adminToken)).product_ids, [retired.id, kept.id]);
      assert.deepEqual((await detail()).product_ids, [kept.id], 'the admin view never leaks into what others are served');

      for (const path of [`/api/courses/${course.id}?include_inactive=true`, '/api/courses?include_inactive=1']) {
        const refused = await s.api.get(path, { token: employee.token });
        assert.deepEqual([refused.status, refused.body.error], [403, 'forbidden'], path);
      }
      assert.equal((await s.api.get(`/api/courses/${course.id}?include_inactive=maybe`, admin())).status, 400);

      // An edit that does not name the inactive product keeps it bound: it comes back once the product is active again.
      const edited = await s.api.put(`/api/courses/${course.id}`, { ...admin(), body: { summary: 'edited', unbind_product_ids: [kept.id] } });
      assert.deepEqual(edited.body.data.product_ids, []);
      assert.equal((await s.api.put(`/api/products/${retired.id}`, { ...admin(), body: { status: 'active' } })).status, 200);
      assert.deepEqual((await detail()).product_ids, [retired.id]);
    });

    test('list filters, delete sets inactive, 404s and 400s', async () => {
      const c1 = (await s.api.post('/api/courses', { ...admin(), body: { title: 'Script 1', category: 'capital_script' } })).body.data;
      const c2 = (await s.api.post('/api/courses', { ...admin(), body: { name: 'Other 1', category: 'other' } })).body.data;
      assert.equal(c2.title, 'Other 1');
      const del = await s.api.delete(`/api/courses/${c2.id}`, admin());
      assert.equal(del.body.data.status, 'inactive');
      const ids = async (q: string) => (await s.api.get(`/api/courses${q}`, { token: employee.token })).body.data.map((c: { id: number }) => c.id);
      assert.ok((await ids('?category=capital_script')).includes(c1.id));
      assert.ok(!(await ids('')).includes(c2.id));
      assert.ok((await ids('?status=all')).includes(c2.id));
      assert.deepEqual(await ids('?status=inactive'), [c2.id]);
      assert.equal((await s.api.get('/api/courses/98765', { token: employee.token })).status, 404);
      assert.equal((await s.api.post('/api/courses', { ...admin(), body: { category: 'x' } })).status, 400);
      assert.equal((await s.api.post('/api/courses', { ...admin(), body: { title: 'x', product_ids: [98765] } })).status, 400);
      assert.equal((await s.api.post('/api/courses', { ...admin(), body: { title: 'x', product_ids: [3_000_000_000] } })).status, 400, 'beyond 32 bits: 400 on both databases');
      assert.equal((await s.api.post('/api/courses', { ...admin(), body: { title: 'x', product_ids: 'all' } })).status, 400);
      assert.equal((await s.api.post('/api/courses', { token: employee.token, body: { title: 'x' } })).status, 403);
    });

    test('categories of active courses, sorted', async () => {
      for (const [title, category, status] of [['C1', 'yy_course_b', 'active'], ['C2', 'yy_course_a', 'active'], ['C3', 'yy_course_c', 'active']]) {
        assert.equal((await s.api.post('/api/courses', { ...admin(), body: { title, category, status } })).status, 201);
      }
      const cats = async () => ((await s.api.get('/api/courses/categories', { token: employee.token })).body.data as string[]).filter((c) => c.startsWith('yy_course_'));
      assert.deepEqual(await cats(), ['yy_course_a', 'yy_course_b', 'yy_course_c']);
      const c3 = (await s.api.get('/api/courses?category=yy_course_c', { token: employee.token })).body.data[0];
      await s.api.delete(`/api/courses/${c3.id}`, admin());
      assert.deepEqual(await cats(), ['yy_course_a', 'yy_course_b'], 'a deactivated course takes its category with it');
    });

    test('reads that were just served reflect every later change at once (course, product, media review, import)', async () => {
      const product = await createProduct({ name: 'Fresh A', code: 'FR-A' });
      const course = (await s.api.post('/api/courses', { ...admin(), body: { title: 'Fresh course', product_ids: [product.id] } })).body.data;
      const detail = async () => (await s.api.get(`/api/courses/${course.id}`, { token: employee.token })).body.data;
      const listed = async () => (await s.api.get('/api/courses?status=all&size=100', { token: employee.token })).body.data.find((c: { id: number }) => c.id === course.id);
      const productPage = async () => (await s.api.get('/api/products?status=all&size=100', { token: employee.token })).body.data.find((p: { id: number }) => p.id === product.id);

      assert.equal((await detail()).title, 'Fresh course');
      assert.equal((await listed()).title, 'Fresh course');
      await s.api.put(`/api/courses/${course.id}`, { ...admin(), body: { title: 'Renamed course' } });
      assert.deepEqual([(await detail()).title, (await listed()).title], ['Renamed course', 'Renamed course']);

      assert.equal((await detail()).products[0].name, 'Fresh A');
      assert.equal((await productPage()).name, 'Fresh A');
      await s.api.put(`/api/products/${product.id}`, { ...admin(), body: { name: 'Fresh A2' } });
      assert.deepEqual([(await detail()).products[0].name, (await productPage()).name], ['Fresh A2', 'Fresh A2']);

      const imported = await s.api.post('/api/products/import', { ...admin(), form: fileForm('p.json', JSON.stringify([{ code: 'FR-A', name: 'Fresh A3' }])) });
      assert.equal(imported.status, 200, imported.text);
      assert.deepEqual([(await detail()).products[0].name, (await productPage()).name], ['Fresh A3', 'Fresh A3']);

      const uploadForm = fileForm('intro.txt', 'course material', { bind_type: 'course', bind_id: String(course.id) });
      const media = (await s.api.post('/api/media/upload', { ...admin(), form: uploadForm })).body.data;
      assert.deepEqual((await detail()).medias, []);
      const approved = await s.api.post(`/api/media/audit/${media.id}`, { ...admin(), body: { action: 'approve' } });
      assert.equal(approved.status, 200, approved.text);
      assert.deepEqual((await detail()).medias.map((m: { id: number }) => m.id), [media.id]);
    });
  });
});
