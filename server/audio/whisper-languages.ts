// The languages Whisper knows, by the codes whisper.cpp (1.5) accepts for `-l`; the cloud API takes the same ISO 639-1
// codes. A request may name a regional form (zh-CN, en_US) or another case (EN): only the language itself is sent.
const WHISPER_LANGUAGES = new Set(
  (
    'en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no th ur hr bg lt la mi ml cy ' +
    'sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw gl mr pa si km sn yo so af oc ka be tg sd gu am yi lo ' +
    'uz fo ht ps tk nn mt sa lb my bo tl mg as tt haw ln ha ba jw su yue'
  ).split(' '),
);

/** `zh-CN` → `zh`, `EN` → `en`; undefined when Whisper does not know the language. */
export function whisperLanguage(code: string): string | undefined {
  const language = code.trim().split(/[-_]/)[0]!.toLowerCase();
  return WHISPER_LANGUAGES.has(language) ? language : undefined;
}
