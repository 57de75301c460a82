// The pure parts of knowledge ingestion: file format, chunking and the search vocabulary.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseKnowledgeSource, readSourceMeta } from '../../server/knowledge/format.js';
import { KnowledgeFormatError } from '../../server/knowledge/blocks.js';
import { splitIntoChunks } from '../../server/knowledge/chunks.js';
import { indexTerms, queryTerms } from '../../server/knowledge/terms.js';

const formatError = (text: string): KnowledgeFormatError => {
  try {
    parseKnowledgeSource(text, 'file');
  } catch (err) {
    assert.ok(err instanceof KnowledgeFormatError);
    return err;
  }
  assert.fail('expected a format error');
};

const nonSpace = (text: string) => text.replace(/\s+/g, '');

describe('knowledge file format', () => {
  test('title from front matter, else the first H1, else the file name; domain defaults to company', () => {
    assert.deepEqual(readSourceMeta('---\ntitle: 标题\ndomain: product\n---\n# H1\n', 'f'), { title: '标题', domain: 'product' });
    assert.deepEqual(readSourceMeta('intro\n\n# 第一标题\n', 'f'), { title: '第一标题', domain: 'company' });
    assert.deepEqual(readSourceMeta('no heading', 'file-name'), { title: 'file-name', domain: 'company' });
    assert.deepEqual(readSourceMeta('---\ntitle: [broken\n---\n# H1\n', 'f').title, 'H1', 'the scan tolerates what approve rejects');
    assert.equal(parseKnowledgeSource('\uFEFF---\r\ntitle: CRLF\r\n---\r\n\r\ntext\r\n', 'f').title, 'CRLF');
  });

  test('products: known keys are fields, other keys attributes, prose the description', () => {
    const parsed = parseKnowledgeSource('# P\n\n## Product: 甲产品\n- code: A-1\n- Risk Level: R2\n- commission_rate: 1.5%\n- 起购金额：1万元\n\n说明一。\n说明二。\n## 下一节\n正文\n', 'f');
    assert.equal(parsed.products.length, 1);
    assert.deepEqual(parsed.products[0], {
      line: 3,
      input: { name: '甲产品', code: 'A-1', risk_level: 'R2', commission_rate: 1.5, description: '说明一。\n说明二。', attributes: { 起购金额: '1万元' } },
    });
    assert.match(parsed.prose, /## Product: 甲产品/, 'product sections are prose for the chunks too');
  });

  test('questions: answers as "A, C", "AC" or 对/错; question blocks are kept out of the prose', () => {
    const parsed = parseKnowledgeSource(
      '# Q\n\n## Question\n- type: multiple\n- stem: 多选\n- A. 一\n- B. 二\n- C. 三\n- answer: AC\n\n## Question 2\n- type: true_false\n- stem: 判断\n- answer: 错\n- explanation: 因为\n\n## After\nprose\n',
      'f',
    );
    assert.deepEqual(parsed.questions.map((q) => [q.type, q.answer, q.line]), [['multiple', ['A', 'C'], 3], ['true_false', ['false'], 11]]);
    assert.deepEqual(parsed.questions[1]!.options.map((o) => o.key), ['true', 'false']);
    assert.doesNotMatch(parsed.prose, /多选|判断|因为/);
    assert.match(parsed.prose, /## After\nprose/);
  });

  test('headings inside code fences do not open blocks', () => {
    const parsed = parseKnowledgeSource('# T\n\n```md\n## Question\n- nonsense\n```\n', 'f');
    assert.equal(parsed.questions.length, 0);
    assert.match(parsed.prose, /## Question/);
  });

  test('malformed blocks report their line', () => {
    const cases: [string, number, RegExp][] = [
      ['---\ntitle: x\n', 1, /no closing/],
      ['---\n- a\n- b\n---\n', 2, /key: value/],
      ['---\ndomain: "has space"\n---\n', 2, /domain/],
      ['## Product:\n- code: x\n', 1, /needs a name/],
      ['## Product: P\n- just a bullet\n', 2, /key: value/],
      ['## Product: P\n- code: C\n- code: D\n', 3, /given twice \(first on line 2\)/],
      ['## Product: P\n- code: C\n- status: 在售\n', 3, /status/],
      ['## Product: P\n- code: C\n## Product: Q\n- code: C\n', 3, /Duplicate product code "C" \(first on line 1\)/],
      ['## Question\n- stem: s\n- answer: A\n', 1, /type/],
      ['## Question\n- type: single\n- answer: A\n', 1, /stem/],
      ['## Question\n- type: single\n- stem: s\n- A. a\n- B. b\n', 1, /answer/],
      ['## Question\n- type: single\n- stem: s\n- A. only\n- answer: A\n', 4, /at least two options/],
      ['## Question\n- type: true_false\n- stem: s\n- A. yes\n- answer: true\n', 4, /no options/],
      ['## Question\n- type: true_false\n- stem: s\n- answer: maybe\n', 4, /true or false/],
      ['## Question\n- type: single\n- stem: s\n- A. a\n- B. b\n- answer: A\n- course_id: x\n', 7, /course_id/],
      ['## Question\n- type: single\n- stem: s\n- A. a\n- B. b\n- answer: A\n## Question\n- type: single\n- stem:  s \n- A. a\n- B. b\n- answer: B\n', 7, /Duplicate question stem/],
    ];
    for (const [text, line, problem] of cases) {
      const error = formatError(text);
      assert.equal(error.line, line, `${JSON.stringify(text)}: ${error.message}`);
      assert.match(error.message, problem, JSON.stringify(text));
    }
  });
});

describe('splitIntoChunks', () => {
  test('cuts along headings and prefixes each chunk with its heading trail', () => {
    const chunks = splitIntoChunks('intro text\n# 公司\n## 历史\n成立于2009年。\n## 空节\n### 子节\n内容\n```\n# not a heading\n```\n');
    assert.deepEqual(chunks, ['intro text', '公司 > 历史\n\n成立于2009年。', '公司 > 空节 > 子节\n\n内容\n```\n# not a heading\n```']);
  });

  test('every chunk stays within the bound and together they keep all the text', () => {
    const sentence = '客户资产配置需要考虑流动性、收益性与安全性。';
    const doc = [
      '# 手册',
      `## 长段落\n${sentence.repeat(200)}`,
      `## 多段落\n${Array.from({ length: 30 }, (_, i) => `第${i}段。Some English sentence number ${i}. ${sentence}`).join('\n\n')}`,
      `## 无标点\n${'x'.repeat(5000)}`,
      `## 生僻字\n${'𠀀'.repeat(900)}`,
    ].join('\n');
    for (const max of [40, 200, 1200]) {
      const chunks = splitIntoChunks(doc, max);
      assert.ok(chunks.every((c) => c.length <= max && c.trim() === c && c.length > 0), `max ${max}`);
      assert.ok(chunks.every((c) => !/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(c.split('\n\n').pop()!)), 'no split surrogate pair');
      const bodies = chunks.map((c) => c.slice(c.indexOf('\n\n') + 2)).join('');
      assert.equal(nonSpace(bodies), nonSpace(doc.split('\n').filter((l) => !l.startsWith('#')).join('')), `max ${max}`);
    }
    assert.ok(splitIntoChunks(doc).length < splitIntoChunks(doc, 200).length);
    assert.throws(() => splitIntoChunks(doc, 10), RangeError);
  });

  test('paragraphs are packed together up to the bound before a new chunk starts', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((ch) => ch.repeat(15));
    const doc = ['## S', a, b, c].join('\n\n');
    assert.deepEqual(splitIntoChunks(doc, 60), [`S\n\n${a}\n\n${b}\n\n${c}`]);
    assert.deepEqual(splitIntoChunks(doc, 40), [`S\n\n${a}\n\n${b}`, `S\n\n${c}`]);
  });
});

describe('search vocabulary', () => {
  test('CJK runs become bigrams plus the last character; words are folded', () => {
    assert.deepEqual(indexTerms('理财产品 Café-ＡＢＣ 2024年'), ['理财', '财产', '产品', '品', 'cafe', 'abc', '2024', '年']);
  });

  test('queries: CJK phrases, prefixes, distinct terms, loose bigrams', () => {
    assert.deepEqual(queryTerms('理财产品 manag 理 理财产品'), [
      { kind: 'phrase', text: '理财产品', parts: ['理财', '财产', '产品'] },
      { kind: 'prefix', text: 'manag' },
      { kind: 'prefix', text: '理' },
    ]);
    assert.deepEqual(queryTerms('理财产品', { loose: true }), ['理财', '财产', '产品'].map((p) => ({ kind: 'phrase', text: p, parts: [p] })));
    assert.equal(queryTerms('a b c d e f', { max: 3 }).length, 3);
    assert.deepEqual(queryTerms('"*" ( ) : ^ -'), []);
  });
});
