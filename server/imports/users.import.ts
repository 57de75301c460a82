// Users from Excel: one row per person (用户名, 姓名, 部门, 岗位, 角色). Departments and positions are matched by name
// or created; each new user gets a generated initial password, returned once, and must change it at first sign-in.
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import type { Role } from '../../contract/users.js';
import type { BulkImportRowError, InitialCredential, UserImportReport } from '../../contract/imports.js';
import { validationFailed } from '../http/errors.js';
import { hashInitialPassword } from '../auth/passwords.js';
import { insertUser } from '../users/users.repository.js';
import { createDepartment } from '../users/departments.service.js';
import { createPosition } from '../users/positions.service.js';
import { BadCell, assertXlsx, fieldOf, readXlsxRows, templateWorkbook, type SourceRow } from './xlsx-rows.js';

const ALIASES: Record<string, string> = {
  username: 'username', 用户名: 'username', 账号: 'username', 登录名: 'username',
  full_name: 'full_name', name: 'full_name', 姓名: 'full_name',
  department: 'department', 部门: 'department',
  position: 'position', 岗位: 'position', 职位: 'position',
  role: 'role', 角色: 'role',
};

const ROLES: Record<string, Role> = { employee: 'employee', 员工: 'employee', admin: 'admin', 管理员: 'admin' };
const USERNAME = /^[A-Za-z0-9._@-]{1,64}$/;
export const MAX_IMPORT_ROWS = 5_000;

export interface UserRowInput {
  row: number;
  username: string;
  full_name: string;
  department: string;
  position: string;
  role: Role;
}

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value).trim());

/** A cell to report rather than store: an error, a formula without a result, or text typed as a formula (`=…`). */
function badCell(value: unknown): BadCell | null {
  if (value instanceof BadCell) return value;
  return typeof value === 'string' && value.trim().startsWith('=') ? new BadCell('formula', value.trim()) : null;
}

const BAD_CELL_MESSAGES: Record<BadCell['kind'], string> = {
  cell_error: 'the cell shows an error, not a value',
  formula: 'the cell is a formula, not a value: type the value itself',
};

function readRow({ row, values }: SourceRow, errors: BulkImportRowError[]): UserRowInput | undefined {
  const fields: Record<string, string> = {};
  const before = errors.length;
  for (const [header, value] of Object.entries(values)) {
    const field = fieldOf(ALIASES, header);
    if (!field) continue;
    const bad = badCell(value);
    if (bad) errors.push({ row, field, code: bad.kind, error: `${field}: ${BAD_CELL_MESSAGES[bad.kind]}`, value: bad.shown.slice(0, 100) });
    else fields[field] = text(value);
  }
  if (errors.length > before) return undefined;
  const username = fields.username ?? '';
  if (!username) errors.push({ row, field: 'username', code: 'required', error: 'username is required' });
  else if (!USERNAME.test(username)) errors.push({ row, field: 'username', code: 'invalid_format', error: 'username: letters, digits and . _ @ - only, at most 64', value: username });
  const fullName = fields.full_name ?? '';
  if (!fullName) errors.push({ row, field: 'full_name', code: 'required', error: 'full_name is required' });
  else if (fullName.length > 100) errors.push({ row, field: 'full_name', code: 'too_big', error: 'full_name: at most 100 characters' });
  for (const field of ['department', 'position'] as const) {
    if ((fields[field] ?? '').length > 100) errors.push({ row, field, code: 'too_big', error: `${field}: at most 100 characters` });
  }
  const role = fields.role ? ROLES[fields.role.toLowerCase()] : 'employee';
  if (!role) errors.push({ row, field: 'role', code: 'invalid_role', error: 'role must be employee (员工) or admin (管理员)', value: fields.role });
  if (errors.length > before) return undefined;
  return { row, username, full_name: fullName, department: fields.department ?? '', position: fields.position ?? '', role: role! };
}

async function validate(db: Db, rows: SourceRow[]): Promise<{ valid: UserRowInput[]; errors: BulkImportRowError[] }> {
  const errors: BulkImportRowError[] = [];
  const read = rows.map((r) => readRow(r, errors)).filter((r): r is UserRowInput => !!r);
  const firstRow = new Map<string, number>();
  const unique: UserRowInput[] = [];
  for (const r of read) {
    const key = r.username.toLowerCase();
    const first = firstRow.get(key);
    if (first !== undefined) errors.push({ row: r.row, field: 'username', code: 'duplicate_username', other_row: first, error: `duplicate username "${r.username}" (also in row ${first})`, value: r.username });
    else {
      firstRow.set(key, r.row);
      unique.push(r);
    }
  }
  const taken = new Set<string>();
  for (let i = 0; i < unique.length; i += 500) {
    const names = unique.slice(i, i + 500).map((r) => r.username.toLowerCase());
    for (const row of (await db('users').whereRaw(`lower(username) in (${names.map(() => '?').join(', ')})`, names).select('username')) as { username: string }[]) taken.add(row.username.toLowerCase());
  }
  const valid = unique.filter((r) => {
    if (!taken.has(r.username.toLowerCase())) return true;
    errors.push({ row: r.row, field: 'username', code: 'username_taken', error: `username "${r.username}" is already taken`, value: r.username });
    return false;
  });
  errors.sort((a, b) => a.row - b.row);
  return { valid, errors };
}

/** Names among `wanted` that the table does not have yet, in first-seen order. */
async function missingNames(db: Db, table: 'departments' | 'positions', wanted: string[]): Promise<string[]> {
  const names = [...new Set(wanted.filter(Boolean))];
  if (!names.length) return [];
  const existing = new Set(((await db(table).whereIn('name', names).select('name')) as { name: string }[]).map((r) => r.name));
  return names.filter((n) => !existing.has(n));
}

/**
 * 12 characters from a 64-symbol alphabet (72 bits): typed once, then changed at first sign-in. Never starting with
 * "-", which a spreadsheet would read as a formula (the credentials CSV would then show it with a quote before it).
 */
function generatePassword(): string {
  for (;;) {
    const password = crypto.randomBytes(9).toString('base64url');
    if (!password.startsWith('-')) return password;
  }
}

/** The file's rows, refused (400) when it is no .xlsx, has no users or more than MAX_IMPORT_ROWS. */
export async function readUserRows(file: { filepath: string; originalFilename?: string | null }): Promise<SourceRow[]> {
  assertXlsx(file);
  const rows = await readXlsxRows(file.filepath);
  if (!rows.length) throw validationFailed('The import file contains no users');
  if (rows.length > MAX_IMPORT_ROWS) throw validationFailed(`At most ${MAX_IMPORT_ROWS} users per import`);
  return rows;
}

export interface CheckedUsers {
  report: UserImportReport;
  valid: UserRowInput[];
}

/** Checks every row and reports what an import would do; writes nothing. */
export async function checkUsers(db: Db, rows: SourceRow[], dryRun: boolean): Promise<CheckedUsers> {
  const { valid, errors } = await validate(db, rows);
  const report: UserImportReport = {
    dry_run: dryRun,
    total: rows.length,
    valid: valid.length,
    imported: 0,
    errors,
    departments_created: await missingNames(db, 'departments', valid.map((r) => r.department)),
    positions_created: await missingNames(db, 'positions', valid.map((r) => r.position)),
    credentials: [],
  };
  return { report, valid };
}

export interface WriteHooks {
  /** Told how many users are written so far, every PROGRESS_EVERY rows (inside the transaction). */
  progress?(written: number): Promise<void>;
  /** Runs last in the import's transaction with the finished report: a job records that it is done in the same commit. */
  finish?(trx: Knex.Transaction, report: UserImportReport): Promise<void>;
}

const PROGRESS_EVERY = 50;

/**
 * Writes the checked users: the departments and positions, the users and their password hashes in one transaction,
 * all rows or none. Returns the report with the generated credentials.
 */
export async function writeUsers(db: Knex, { report: checked, valid }: CheckedUsers, hooks: WriteHooks = {}): Promise<UserImportReport> {
  // Random 72-bit passwords need no key stretching: a salted SHA-256 each (passwords.ts), microseconds rather than
  // argon2's quarter second, so 5,000 users take seconds and logins meanwhile keep the hashing threads.
  const credentials: InitialCredential[] = [];
  const hashes: string[] = [];
  for (const r of valid) {
    const password = generatePassword();
    credentials.push({ row: r.row, username: r.username, full_name: r.full_name, password });
    hashes.push(hashInitialPassword(password));
  }
  const report: UserImportReport = { ...checked, imported: valid.length, credentials };
  await db.transaction(async (trx) => {
    const departments = new Map<string, number>();
    for (const name of await missingNames(trx, 'departments', valid.map((r) => r.department))) await createDepartment(trx, { name });
    for (const name of await missingNames(trx, 'positions', valid.map((r) => r.position))) await createPosition(trx, { name });
    for (const d of (await trx('departments').select('id', 'name')) as { id: number; name: string }[]) departments.set(d.name, Number(d.id));
    const positions = new Map(((await trx('positions').select('id', 'name')) as { id: number; name: string }[]).map((p) => [p.name, Number(p.id)]));
    for (const [i, r] of valid.entries()) {
      await insertUser(trx, {
        username: r.username,
        password_hash: hashes[i]!,
        full_name: r.full_name,
        role: r.role,
        status: 'active',
        department: r.department,
        department_id: r.department ? (departments.get(r.department) ?? null) : null,
        position_id: r.position ? (positions.get(r.position) ?? null) : null,
        must_change_password: true,
      });
      if ((i + 1) % PROGRESS_EVERY === 0) await hooks.progress?.(i + 1);
    }
    await hooks.finish?.(trx, report);
  });
  return report;
}

/** Checks every row; a dry run (or any invalid row) writes nothing, otherwise every row is written (writeUsers). */
export async function importUserRows(db: Knex, rows: SourceRow[], dryRun: boolean): Promise<UserImportReport> {
  const checked = await checkUsers(db, rows, dryRun);
  if (checked.report.errors.length || dryRun) return checked.report;
  return writeUsers(db, checked);
}

export const userTemplate = (): Promise<Buffer> =>
  templateWorkbook(
    '用户',
    [
      { header: '用户名', width: 18 },
      { header: '姓名', width: 14 },
      { header: '部门', width: 18 },
      { header: '岗位', width: 18 },
      { header: '角色', width: 10 },
    ],
    [
      ['zhangsan', '张三', '财富管理部', '理财经理', '员工'],
      ['lisi', '李四', '培训部', '培训主管', '管理员'],
    ],
  );
