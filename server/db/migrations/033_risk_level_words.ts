// Products stored before risk levels were checked say their level in words (low, 中风险, pr3…): each is rewritten as
// the level R1–R5 it names, so risk_match reads it. A value that names no level is left as written. The reading is
// a copy of riskLevelOf (server/compliance/engine.ts) as it was when this migration was written: a migration must
// not change its meaning with later code.
import type { Knex } from 'knex';

const WORDS: Record<string, string> = {
  低风险: 'R1', 中低风险: 'R2', 中风险: 'R3', 中高风险: 'R4', 高风险: 'R5',
  LOW: 'R1', 'MEDIUM-LOW': 'R2', MEDIUM: 'R3', 'MEDIUM-HIGH': 'R4', HIGH: 'R5',
};

function levelOf(value: string): string | null {
  const text = value.normalize('NFKC').trim().toUpperCase().replace(/[\s_-]+/g, '-');
  const r = /^P?R-?([1-5])$/.exec(text);
  if (r) return `R${r[1]}`;
  return WORDS[text] ?? WORDS[text.replace(/-/g, '')] ?? null;
}

export async function up(db: Knex): Promise<void> {
  const rows = (await db('products').whereNotNull('risk_level').whereNot('risk_level', '').select('id', 'risk_level')) as { id: number; risk_level: string }[];
  for (const row of rows) {
    const level = levelOf(row.risk_level);
    if (level && level !== row.risk_level) await db('products').where({ id: row.id }).update({ risk_level: level });
  }
}

export async function down(): Promise<void> {
  // The words a level was written in are not kept: R1–R5 reads the same either way.
}
