// The credentials CSV a users import offers (issue 34): a cell Excel would read as a formula stays text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { credentialsCsvText, neutralizeCell } from '../../renderer/src/features/imports/credentials-csv.js';

test('cells starting with = + - @ (or a tab or CR) are prefixed with a quote; others are kept', () => {
  assert.deepEqual(['=cmd|"/c calc"!A1', '+1', '-2', '@SUM(A1)', '\t=1', 'zhangsan', '张三', 'a=b'].map(neutralizeCell), ["'=cmd|\"/c calc\"!A1", "'+1", "'-2", "'@SUM(A1)", "'\t=1", 'zhangsan', '张三', 'a=b']);
  const csv = credentialsCsvText([{ username: 'wang', full_name: '=HYPERLINK("x")', password: '-abc' }], ['用户名', '姓名', '密码']);
  assert.equal(csv, '\ufeff"用户名","姓名","密码"\r\n"wang","\'=HYPERLINK(""x"")","\'-abc"');
});
