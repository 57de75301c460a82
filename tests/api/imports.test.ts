// Bulk imports (issue 25): users and questions from Excel with a template, a dry run that lists row errors, and an
// atomic import; imported users sign in with their generated password and must choose their own first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import ExcelJS from 'exceljs';
import { startTestServer, type TestServer } from '../support/server.js';
import type { QuestionImportReport, UserImportReport } from '../../contract/imports.js';
import type { Question } from '../../contract/exams.js';

let ts: TestServer;

before(async () => {
  ts = await startTestServer();
});
after(() => ts.close());

const tag = () => crypto.randomBytes(3).toString('hex');

async function xlsx(rows: (string | number | null)[][]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  for (const row of rows) sheet.addRow(row);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

function fileForm(name: string, content: Uint8Array, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([new Uint8Array(content)]), name);
  return form;
}

const importFile = (path: string, book: Uint8Array, dryRun: boolean, token = ts.adminToken) =>
  ts.api.post(`${path}${dryRun ? '?dry_run=true' : ''}`, { token, form: fileForm('import.xlsx', book) });

async function template(path: string): Promise<{ response: Response; headers: string[] }> {
  const response = await fetch(`${ts.url}${path}`, { headers: { authorization: `Bearer ${ts.adminToken}` } });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await response.clone().arrayBuffer());
  const headers = (workbook.worksheets[0]!.getRow(1).values as unknown[]).filter(Boolean).map(String);
  return { response, headers };
}

const USER_HEADER = ['用户名', '姓名', '部门', '岗位', '角色'];

describe('user import', () => {
  test('the template names the columns; only admins get it or import', async () => {
    const { response, headers } = await template('/api/system/users/import/template');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /spreadsheetml/);
    assert.match(response.headers.get('content-disposition') ?? '', /attachment/);
    assert.deepEqual(headers, USER_HEADER);
    const employee = await ts.user();
    assert.equal((await ts.api.get('/api/system/users/import/template', { token: employee.token })).status, 403);
    assert.equal((await ts.api.get('/api/system/users/import/template')).status, 401);
    assert.equal((await importFile('/api/system/users/import', await xlsx([USER_HEADER]), true, employee.token)).status, 403);
  });

  test('a dry run lists every bad row and writes nothing; the real import of that file is a 400 that writes nothing', async () => {
    const t = tag();
    const taken = await ts.user();
    const book = await xlsx([
      USER_HEADER,
      [`ok_${t}`, '王五', `部门_${t}`, `岗位_${t}`, '员工'],
      [`ok_${t}`, '王五二', '', '', ''],
      [taken.username, '重名', '', '', ''],
      ['', '没有用户名', '', '', ''],
      [`role_${t}`, '角色错', '', '', '经理'],
      [`bad name ${t}`, '空格', '', '', ''],
    ]);
    const dry = await importFile('/api/system/users/import', book, true);
    assert.equal(dry.status, 200, dry.text);
    const report = dry.body.data as UserImportReport;
    assert.equal(report.dry_run, true);
    assert.equal(report.total, 6);
    assert.equal(report.imported, 0);
    assert.deepEqual(report.credentials, []);
    assert.deepEqual(
      report.errors.map((e) => [e.row, e.field, e.code]),
      [
        [3, 'username', 'duplicate_username'],
        [4, 'username', 'username_taken'],
        [5, 'username', 'required'],
        [6, 'role', 'invalid_role'],
        [7, 'username', 'invalid_format'],
      ],
    );
    assert.equal(report.errors[0]!.other_row, 2);

    const real = await importFile('/api/system/users/import', book, false);
    assert.equal(real.status, 400, real.text);
    assert.equal(real.body.error, 'validation_failed');
    assert.equal(real.body.details.errors.length, 5);
    const users = await ts.api.get(`/api/system/users?q=ok_${t}`, { token: ts.adminToken });
    assert.equal((users.body.data.items ?? users.body.data).length, 0, 'no user written');
    const departments = await ts.api.get('/api/system/departments', { token: ts.adminToken });
    assert.equal(JSON.stringify(departments.body.data).includes(`部门_${t}`), false, 'no department written');
  });

  test('an import creates users, their departments and positions, and returns each initial password once', async () => {
    const t = tag();
    const existing = await ts.api.post('/api/system/departments', { token: ts.adminToken, body: { name: `已有部门_${t}` } });
    assert.equal(existing.status, 201, existing.text);
    const book = await xlsx([
      USER_HEADER,
      [`a_${t}`, '赵一', `已有部门_${t}`, `新岗位_${t}`, '员工'],
      [`b_${t}`, '钱二', `新部门_${t}`, `新岗位_${t}`, '管理员'],
    ]);
    const dry = (await importFile('/api/system/users/import', book, true)).body.data as UserImportReport;
    assert.deepEqual(dry.departments_created, [`新部门_${t}`]);
    assert.deepEqual(dry.positions_created, [`新岗位_${t}`]);
    assert.equal(dry.errors.length, 0);

    const res = await importFile('/api/system/users/import', book, false);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const report = res.body.data as UserImportReport;
    assert.equal(report.imported, 2);
    assert.deepEqual(report.credentials.map((c) => [c.row, c.username]), [[2, `a_${t}`], [3, `b_${t}`]]);
    assert.ok(report.credentials.every((c) => c.password.length >= 12));
    assert.notEqual(report.credentials[0]!.password, report.credentials[1]!.password);

    const list = await ts.api.get(`/api/system/users?q=_${t}`, { token: ts.adminToken });
    const users = (list.body.data.items ?? list.body.data) as { username: string; role: string; department: string; department_id: number; position_id: number }[];
    const a = users.find((u) => u.username === `a_${t}`)!;
    const b = users.find((u) => u.username === `b_${t}`)!;
    assert.equal(a.role, 'employee');
    assert.equal(b.role, 'admin');
    assert.equal(a.department_id, existing.body.data.id);
    assert.equal(b.department, `新部门_${t}`);
    assert.ok(b.department_id);
    assert.equal(a.position_id, b.position_id);
    assert.ok(a.position_id);

    // Importing the same file again: every username is taken now, nothing is written.
    const again = await importFile('/api/system/users/import', book, false);
    assert.equal(again.status, 400);
    assert.deepEqual(again.body.details.errors.map((e: { code: string }) => e.code), ['username_taken', 'username_taken']);
  });

  test('an imported user signs in with the generated password and must change it before anything else', async () => {
    const t = tag();
    const res = await importFile('/api/system/users/import', await xlsx([USER_HEADER, [`new_${t}`, '孙三', '', '', '']]), false);
    const { username, password } = (res.body.data as UserImportReport).credentials[0]!;

    const login = await ts.api.post('/api/auth/login', { body: { username, password } });
    assert.equal(login.status, 200, login.text);
    assert.equal(login.body.data.must_change_password, true);
    assert.deepEqual(Object.keys(login.body.data.user).sort(), ['full_name', 'id', 'role', 'username'], 'the spec\'s user shape');
    const token = login.body.data.token as string;
    const me = await ts.api.get('/api/auth/me', { token });
    assert.equal(me.status, 200);
    assert.equal(me.body.data.must_change_password, true);
    const refused = await ts.api.get('/api/exam/list', { token });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'auth.password_change_required');

    const wrong = await ts.api.put('/api/auth/password', { token, body: { current_password: 'not-it', new_password: 'my-own-pass-1' } });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, 'auth.wrong_password');
    const same = await ts.api.put('/api/auth/password', { token, body: { current_password: password, new_password: password } });
    assert.equal(same.body.error, 'auth.same_password');
    const short = await ts.api.put('/api/auth/password', { token, body: { current_password: password, new_password: 'short' } });
    assert.equal(short.status, 400);

    const changed = await ts.api.put('/api/auth/password', { token, body: { current_password: password, new_password: 'my-own-pass-1' } });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.data.must_change_password, false);
    assert.equal((await ts.api.get('/api/exam/list', { token })).status, 200);
    assert.equal((await ts.api.post('/api/auth/login', { body: { username, password } })).status, 401, 'the initial password no longer works');
    const relogin = await ts.api.post('/api/auth/login', { body: { username, password: 'my-own-pass-1' } });
    assert.equal(relogin.body.data.must_change_password, false);
  });

  test('anyone can change their own password; a file that is not .xlsx is a 400', async () => {
    const me = await ts.user();
    const changed = await ts.api.put('/api/auth/password', { token: me.token, body: { current_password: 'secret-pass', new_password: 'another-pass-2' } });
    assert.equal(changed.status, 200, changed.text);
    const notXlsx = await ts.api.post('/api/system/users/import', { token: ts.adminToken, form: fileForm('users.csv', new TextEncoder().encode('a,b')) });
    assert.equal(notXlsx.status, 400);
  });
});

const QUESTION_HEADER = ['题型', '题干', '选项A', '选项B', '选项C', '选项D', '答案', '解析', '领域', '课程'];

describe('question import', () => {
  test('the template names the columns', async () => {
    const { response, headers } = await template('/api/exam/questions/import/template');
    assert.equal(response.status, 200);
    assert.deepEqual(headers, QUESTION_HEADER);
  });

  test('a dry run lists every bad row; a failed import leaves nothing', async () => {
    const domain = `imp_${tag()}`;
    const book = await xlsx([
      QUESTION_HEADER,
      ['单选', '好的单选？', '甲', '乙', '丙', '丁', 'B', '', domain, ''],
      ['问答', '不支持的题型', '', '', '', '', 'A', '', domain, ''],
      ['单选', '答案不在选项中', '甲', '乙', '', '', 'E', '', domain, ''],
      ['单选', '单选两个答案', '甲', '乙', '丙', '', 'A,B', '', domain, ''],
      ['多选', '没有答案', '甲', '乙', '', '', '', '', domain, ''],
      ['判断', '判断题答非所问', '', '', '', '', '也许', '', domain, ''],
      ['单选', '课程不存在', '甲', '乙', '', '', 'A', '', domain, '没有这门课'],
      ['单选', '只有一个选项', '甲', '', '', '', 'A', '', domain, ''],
      ['单选', '', '甲', '乙', '', '', 'A', '', domain, ''],
    ]);
    const dry = await importFile('/api/exam/questions/import', book, true);
    assert.equal(dry.status, 200, dry.text);
    const report = dry.body.data as QuestionImportReport;
    assert.equal(report.valid, 1);
    assert.deepEqual(
      report.errors.map((e) => [e.row, e.field, e.code]),
      [
        [3, 'type', 'invalid_question_type'],
        [4, 'answer', 'invalid_answer'],
        [5, 'answer', 'invalid_answer'],
        [6, 'answer', 'required'],
        [7, 'answer', 'invalid_answer'],
        [8, 'course', 'unknown_course'],
        [9, 'options', 'invalid_options'],
        [10, 'stem', 'required'],
      ],
    );
    const real = await importFile('/api/exam/questions/import', book, false);
    assert.equal(real.status, 400);
    const listed = await ts.api.get(`/api/exam/questions?domain=${domain}&status=all`, { token: ts.adminToken });
    assert.deepEqual(listed.body.data, []);
  });

  test('single, multiple and true/false questions with explanation, domain and course (by title or id)', async () => {
    const domain = `imp_${tag()}`;
    const course = await ts.api.post('/api/courses', { token: ts.adminToken, body: { title: `导入课程 ${domain}`, category: 'c', content: 'x' } });
    assert.equal(course.status, 201, course.text);
    const book = await xlsx([
      QUESTION_HEADER,
      ['单选', '稳健型客户可买的最高风险等级？', 'R1', 'R2', 'R3', 'R4', 'c', '见适当性管理办法。', domain, `导入课程 ${domain}`],
      ['多选', '必须完成的步骤？', '风险测评', '风险揭示', '双录', '赠送礼品', 'A、B、C', '', domain, String(course.body.data.id)],
      ['判断', '可以承诺保本。', '', '', '', '', '错误', '禁止承诺保本。', domain, ''],
      ['multiple', 'English headers of types work too', 'x', 'y', 'z', '', 'AC', '', domain, ''],
    ]);
    const res = await importFile('/api/exam/questions/import', book, false);
    assert.equal(res.status, 200, res.text);
    assert.equal((res.body.data as QuestionImportReport).imported, 4);
    const listed = (await ts.api.get(`/api/exam/questions?domain=${domain}`, { token: ts.adminToken })).body.data as Question[];
    assert.equal(listed.length, 4);
    const [single, multiple, trueFalse, english] = listed;
    assert.deepEqual([single!.type, single!.answer, single!.course_id, single!.explanation], ['single', ['C'], course.body.data.id, '见适当性管理办法。']);
    assert.deepEqual(single!.options.map((o) => o.text), ['R1', 'R2', 'R3', 'R4']);
    assert.deepEqual([multiple!.type, multiple!.answer, multiple!.course_id], ['multiple', ['A', 'B', 'C'], course.body.data.id]);
    assert.deepEqual([trueFalse!.type, trueFalse!.answer, trueFalse!.options.map((o) => o.key)], ['true_false', ['false'], ['true', 'false']]);
    assert.deepEqual(english!.answer, ['A', 'C']);
  });
});
