const fakes = {
  electron: new URL('./electron.mjs', import.meta.url).href,
  'electron-updater': new URL('./electron-updater.mjs', import.meta.url).href,
};

export async function resolve(specifier, context, nextResolve) {
  if (Object.hasOwn(fakes, specifier)) return { url: fakes[specifier], shortCircuit: true };
  return nextResolve(specifier, context);
}
