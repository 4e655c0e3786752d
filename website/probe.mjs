// Run website/probe.py in the built site's own Pyodide under Node, with every package the page loads.
// Usage: node probe.mjs <site>/static/pyodide. Prints one line, or what failed (exit status 1).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const pyodideDir = resolve(process.argv[2]);
const { loadPyodide } = createRequire(import.meta.url)(`${pyodideDir}/pyodide.js`);  // the site ships pyodide.js
try {
  const lock = JSON.parse(readFileSync(`${pyodideDir}/pyodide-lock.json`, "utf8"));
  const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, packages: Object.keys(lock.packages),
                                      stdout: () => {}, stderr: () => {} });
  const here = dirname(fileURLToPath(import.meta.url));
  pyodide.runPython(readFileSync(`${here}/probe.py`, "utf8"));
  const [ok, report] = pyodide.globals.get("main")().toJs();
  console.log(report);
  process.exitCode = ok ? 0 : 1;
} catch (error) {  // Pyodide itself did not start: its message says why (a PythonError's is the traceback)
  console.log(`Pyodide did not start: ${error?.message ?? error}`);
  process.exitCode = 1;
}
