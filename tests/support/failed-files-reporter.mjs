// A node:test reporter that writes the files with a failing test as a JSON list (tests/run.mjs retries browser files).
export default async function* failedFiles(source) {
  const files = new Set();
  for await (const event of source) {
    if (event.type === 'test:fail' && event.data.file) files.add(event.data.file);
  }
  yield `${JSON.stringify([...files])}\n`;
}
