// Shared exit behaviour of the CLIs: a known failure prints one clear line (no stack trace) and exits 1.
import { ConfigError } from '../src/config.js';

export class CliError extends Error {
  override name = 'CliError';
}

export async function runCli(main: () => Promise<void> | void): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (error instanceof CliError || error instanceof ConfigError) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exitCode = 1;
  }
}
