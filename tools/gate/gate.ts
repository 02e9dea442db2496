// `npm run gate` and the webpage-reports-gate bin: the gate with this process's arguments,
// environment and output; README.md ("CI gate") says how to use it.
import { main } from './main';

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
