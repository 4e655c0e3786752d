// Run website/bytecode.py inside Pyodide under Node: bytecode from the very interpreter the browser runs.
// Usage: node bytecode.mjs <pyodide folder> <jobs.json> (a list of jobs, see bytecode.py: compile_archive).
// Paths are mounted into Pyodide's file system as they are; nothing here touches the network.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

const [pyodideDir, jobsFile] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
// No column ranges in the bytecode: tracebacks keep their line numbers, and a quarter less is downloaded.
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, env: { PYTHONNODEBUGRANGES: "1" } });
const jobs = JSON.parse(readFileSync(jobsFile, "utf8"));
const folders = new Set(jobs.flatMap((job) => [dirname(job.source), dirname(job.target)]));
for (const folder of folders) {
  pyodide.FS.mkdirTree(folder);
  pyodide.mountNodeFS(folder, folder);
}
const here = dirname(fileURLToPath(import.meta.url));
pyodide.runPython(readFileSync(`${here}/bytecode.py`, "utf8"));
pyodide.globals.get("main")(pyodide.toPy(jobs));
