// What every CLI runtime here shares, in the shape of RemoteClaw's CLI runtimes: spawn
// the CLI (found on PATH, as a runtime finds it), hand it the prompt and the media its
// own way (argv, a stdin payload, files), read its NDJSON stdout line by line, turn
// each line into AgentEvents, and end with exactly one `done`. The CLI's failures
// become `error` events (CLI_STDERR, CLI_EXIT_ERROR, ABORTED) before that `done`;
// abortSignal is SIGTERM to the CLI, then SIGKILL if it lingers.
//
// A runtime module supplies a `cli` object:
//   command                      the executable's name
//   prepare(params) -> prepared  async; files, argv, stdin and env for this run
//                                ({args, stdin?, env?, cleanup?})
//   extract(line, state)         one parsed stdout object -> AgentEvent | null; may set
//                                state.sessionId and append state.text
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** How long a CLI has after SIGTERM before SIGKILL. */
const KILL_AFTER_MS = 1500;
/** How much of the CLI's stderr is kept for an error event. */
const MAX_STDERR = 16 * 1024;

/** The witness's origin (no `/v1`) and its OpenAI base (`/v1`), when mmconform runs one. */
export function witness() {
  const url = process.env.MMCONFORM_WITNESS_URL;
  if (!url) return null;
  const v1 = url.replace(/\/+$/, "");
  return { v1, origin: v1.replace(/\/v1$/, "") };
}

/** The bytes of an attachment: its base64, else the file at filePath. */
export async function bytesOf(media) {
  if (media.base64) return Buffer.from(media.base64, "base64");
  if (media.filePath) return readFile(media.filePath);
  throw new Error(`attachment ${media.mimeType}: neither base64 nor filePath`);
}

const EXTENSIONS = {
  "image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
  "audio/wav": ".wav", "audio/mpeg": ".mp3", "audio/ogg": ".ogg",
  "video/mp4": ".mp4", "video/webm": ".webm", "application/pdf": ".pdf",
};

/** Writes each attachment to a fresh directory under `parent` (a CLI that reads files
 *  needs a path even for base64-only media); returns the paths and the directory. */
export async function mediaFiles(list, parent = tmpdir()) {
  const dir = await mkdtemp(join(parent, "agentruntime-media-"));
  const paths = [];
  for (const [i, media] of list.entries()) {
    const path = join(dir, `media-${i}${EXTENSIONS[media.mimeType.split(";")[0].trim()] ?? ""}`);
    await writeFile(path, await bytesOf(media));
    paths.push(path);
  }
  return { dir, paths, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** ChannelBridge's rule: a `type/` prefix, or the whole type. */
export function accepts(list, mime) {
  const essence = mime.split(";")[0].trim().toLowerCase();
  return list.some((a) => (a.endsWith("/") ? essence.startsWith(a) : essence === a));
}

export function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An AgentRuntime around `cli` declaring `mediaCapabilities`. */
export function cliRuntime(cli, mediaCapabilities) {
  return {
    mediaCapabilities,
    async *execute(params) {
      yield* run(cli, params);
    },
  };
}

async function* run(cli, params) {
  const started = Date.now();
  const state = { text: "", sessionId: undefined };
  let prepared;
  try {
    prepared = await cli.prepare(params);
  } catch (error) {
    yield { type: "error", message: `cannot prepare the run: ${error?.message ?? error}`, code: "PREPARE_FAILED" };
    yield done(state, params, started, false);
    return;
  }
  const args = [...prepared.args, ...(params.extraArgs ?? [])];
  const child = spawn(cli.command, args, {
    cwd: params.workingDirectory,
    env: { ...process.env, ...(prepared.env ?? {}), ...(params.env ?? {}) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    if (stderr.length < MAX_STDERR) stderr += chunk.toString();
  });
  const exited = new Promise((resolve) => {
    child.on("error", (error) => resolve({ code: null, error }));
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
  child.stdin.on("error", () => {}); // a CLI that exits before reading its stdin
  if (prepared.stdin !== undefined) child.stdin.write(prepared.stdin);
  child.stdin.end();

  let aborted = false;
  let killer;
  const onAbort = () => {
    aborted = true;
    child.kill("SIGTERM");
    killer = setTimeout(() => child.kill("SIGKILL"), KILL_AFTER_MS);
  };
  params.abortSignal?.addEventListener("abort", onAbort, { once: true });

  let events = 0;
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      let parsed;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue; // not NDJSON: progress chatter, skipped as the runtimes skip it
      }
      if (!isObject(parsed)) continue;
      const event = cli.extract(parsed, state);
      if (event) {
        events += 1;
        yield event;
      }
    }
  } finally {
    params.abortSignal?.removeEventListener("abort", onAbort);
  }
  const { code, error } = await exited;
  clearTimeout(killer);
  await prepared.cleanup?.();
  if (error) {
    yield { type: "error", message: `cannot start ${cli.command}: ${error.message}`, code: "CLI_NOT_FOUND" };
  } else if (!aborted && code !== 0) {
    const message = stderr.trim() || `${cli.command} exited with code ${code}`;
    yield { type: "error", message, code: stderr.trim() ? "CLI_STDERR" : "CLI_EXIT_ERROR" };
  } else if (!aborted && events === 0 && stderr.trim()) {
    yield { type: "error", message: stderr.trim(), code: "CLI_STDERR" };
  }
  if (aborted) yield { type: "error", message: "Execution aborted", code: "ABORTED" };
  yield done(state, params, started, aborted, stderr);
}

function done(state, params, started, aborted, stderr) {
  return {
    type: "done",
    result: {
      text: state.text,
      sessionId: state.sessionId ?? params.sessionId ?? "",
      durationMs: Date.now() - started,
      usage: state.usage ?? {},
      aborted,
      ...(stderr ? { stderr: stderr.slice(0, MAX_STDERR) } : {}),
    },
  };
}
