#!/usr/bin/env node
// mmconform bridge protocol v1 for any AgentRuntime (RemoteClaw #385), dependency-free.
//
//   node bridge.mjs ./my-runtime.mjs [export-name]
//
// Loads the module, takes its AgentRuntime (the named export, else `default`, else
// `runtime`; a function or class is called/constructed with no arguments), reads ONE
// JSON line from stdin, and:
//   {"op":"describe"}           -> prints {"mediaCapabilities": ...} (absent: nothing declared)
//   {"op":"execute","params":P} -> prints each AgentEvent of runtime.execute(P) as one line
// then exits 0. SIGTERM is the contract's abortSignal: the run is asked to stop and the
// bridge still prints the runtime's done (or one with aborted: true if it gave none).
// stdout carries only event lines; everything else goes to stderr.
import { pathToFileURL } from "node:url";
import path from "node:path";

const [modulePath, exportName] = process.argv.slice(2);
if (!modulePath) {
  console.error("usage: node bridge.mjs MODULE [EXPORT]");
  process.exit(2);
}

function print(value) {
  process.stdout.write(JSON.stringify(value) + "\n");
}

async function loadRuntime() {
  const mod = await import(pathToFileURL(path.resolve(modulePath)).href);
  let candidate = exportName ? mod[exportName] : (mod.default ?? mod.runtime);
  if (typeof candidate === "function") {
    try {
      candidate = new candidate();
    } catch {
      candidate = await candidate();
    }
  }
  if (!candidate || typeof candidate.execute !== "function") {
    throw new Error(`${modulePath}: no AgentRuntime export (an object with execute())`);
  }
  return candidate;
}

async function readRequest() {
  let text = "";
  for await (const chunk of process.stdin) {
    text += chunk;
    const newline = text.indexOf("\n");
    if (newline >= 0) return JSON.parse(text.slice(0, newline));
  }
  return JSON.parse(text);
}

async function execute(runtime, params) {
  const controller = new AbortController();
  const started = Date.now();
  process.on("SIGTERM", () => controller.abort());
  let done = false;
  try {
    for await (const event of runtime.execute({ ...params, abortSignal: controller.signal })) {
      if (done) {
        console.error("bridge: the runtime yielded after done; not printed");
        continue;
      }
      print(event);
      done = event?.type === "done";
    }
  } catch (error) {
    print({ type: "error", message: String(error?.message ?? error), code: controller.signal.aborted ? "ABORTED" : "RUNTIME_THREW" });
  }
  if (!done) {
    print({
      type: "done",
      result: { text: "", sessionId: params.sessionId ?? "", durationMs: Date.now() - started, usage: {}, aborted: controller.signal.aborted },
    });
  }
}

try {
  const request = await readRequest();
  const runtime = await loadRuntime();
  if (request.op === "describe") {
    const caps = runtime.mediaCapabilities;
    print(caps === undefined ? {} : { mediaCapabilities: caps });
  } else if (request.op === "execute") {
    await execute(runtime, request.params ?? {});
  } else {
    console.error(`bridge: unknown op ${JSON.stringify(request.op)}`);
    process.exit(2);
  }
  process.exit(0);
} catch (error) {
  console.error(`bridge: ${error?.stack ?? error}`);
  process.exit(1);
}
