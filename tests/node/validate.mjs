// Runs the Khronos glTF validator on each file given and fails unless it reports zero errors
// and zero warnings (infos and hints are printed, not counted).
//   node validate.mjs FILE.glb [FILE.gltf ...]
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import validator from 'gltf-validator';

let failed = 0;
for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(readFileSync(file));
  const report = await validator.validateBytes(bytes, {
    uri: basename(file),
    maxIssues: 0,
    externalResourceFunction: (uri) => Promise.reject(new Error(`external resource ${uri} not expected`)),
  });
  const { numErrors, numWarnings, numInfos, numHints, messages } = report.issues;
  const bad = messages.filter((m) => m.severity <= 1);
  console.log(`${file}: ${numErrors} errors, ${numWarnings} warnings, ${numInfos} infos, ${numHints} hints`);
  for (const m of messages.slice(0, 12))
    console.log(`  [${['error', 'warning', 'info', 'hint'][m.severity]}] ${m.code} ${m.pointer ?? ''}: ${m.message}`);
  if (numErrors || numWarnings || bad.length) failed++;
}
process.exit(failed ? 1 : 0);
