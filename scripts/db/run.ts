/**
 * Runs a script's `main` when the module is the entry point (`npx tsx scripts/db/<name>.ts`):
 * exits with the code `main` resolves to, or prints the error and exits 2.
 * Input: the module's `import.meta.url` and its main function. Output: none (the process exits).
 */
export function runIfMain(moduleUrl: string, main: () => Promise<number>): void {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error((err as Error).message);
      process.exit(2);
    },
  );
}
