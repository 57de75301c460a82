// Pure helpers behind the worker chat: task titles, skill prompts and the parsing of model replies.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseReport, parseTable, renderSkillPrompt } from '../../server/workbench/skill-io.js';
import { taskTitle } from '../../server/workbench/exchange-plan.js';

describe('workbench skill input and output', () => {
  test('taskTitle takes the first sentence, not a decimal point, and bounds the length', () => {
    assert.equal(taskTitle('Raise the rate to 3.5 percent. Then tell the team.'), 'Raise the rate to 3.5 percent.');
    assert.equal(taskTitle('  First line\nsecond line'), 'First line');
    assert.equal(taskTitle('What changed? Nothing.'), 'What changed?');
    assert.equal(taskTitle('No terminator at all'), 'No terminator at all');
    assert.equal(taskTitle('x'.repeat(150)), `${'x'.repeat(99)}…`);
  });

  test('renderSkillPrompt fills message, documents, inputs and config defaults', () => {
    const prompt = renderSkillPrompt(
      'Q: {{message}}\nFields:\n{{fields}}\nList:\n{{checklist}}\nUnknown:[{{nothing}}]\n{{documents}}',
      { message: 'Go', documents: [{ name: 'a.txt', content: 'alpha' }], inputs: { fields: ['x', 'y'] } },
      { checklist: ['one'], fields: ['ignored'] },
    );
    assert.equal(prompt, 'Q: Go\nFields:\n- x\n- y\nList:\n- one\nUnknown:[]\n--- Document 1: a.txt ---\nalpha\n--- End of document 1 ---');
  });

  test('parseTable reads fenced, wrapped and record-shaped JSON and refuses the rest', () => {
    assert.deepEqual(parseTable('{"columns":["a","b"],"rows":[["1",2]]}'), { columns: ['a', 'b'], rows: [['1', 2]] });
    assert.deepEqual(parseTable('Sure [see below]:\n```json\n{"columns":["a"],"rows":[["x"],["y", "extra"]]}\n```\nDone.'), { columns: ['a'], rows: [['x'], ['y']] });
    assert.deepEqual(parseTable('[{"doc":"a","total":1},{"doc":"b","note":{"k":1}}]'), {
      columns: ['doc', 'total', 'note'],
      rows: [
        ['a', 1, null],
        ['b', null, '{"k":1}'],
      ],
    });
    assert.equal(parseTable('no table here'), undefined);
    assert.equal(parseTable('{"columns":[],"rows":[]}'), undefined);
    assert.equal(parseTable('{"columns":["a"],"rows":[["x"]'), undefined);
  });

  test('parseReport strips a wrapping markdown fence and refuses an empty reply', () => {
    assert.equal(parseReport('```markdown\n# Title\nBody\n```'), '# Title\nBody');
    assert.equal(parseReport('# Title\n```js\ncode()\n```\nafter'), '# Title\n```js\ncode()\n```\nafter');
    assert.equal(parseReport('  \n '), undefined);
  });
});
