// An AgentRuntime around Codex (`codex exec`), handing it images the way Codex takes
// them: `--image PATH` per image, after the prompt (the flag takes several values, so
// a prompt placed after it would be read as one more image). A base64-only attachment is
// written to a temporary file first. `codex exec --json` prints thread/item/turn
// events; `sessionId` resumes with `codex exec resume ID`.
//
// Its model: with mmconform's witness (MMCONFORM_WITNESS_URL), a model provider whose
// `base_url` is the witness's `/v1` and `wire_api = "responses"` (OpenAI Responses),
// given with `-c` so no configuration file is read or written. The model is one Codex
// knows (`$MMCONFORM_CODEX_MODEL`, else gpt-5.5): for a name it does not know, Codex
// prints a warning as a top-level `error` line of its --json stream, and a runtime that
// maps every `error` line to an error event (as RemoteClaw's does) fails the run on it.
//
//   node ../bridge.mjs codex.mjs
import { accepts, cliRuntime, isObject, mediaFiles, witness } from "./cli-runtime.mjs";

const ACCEPTS = ["image/"];

async function prepare(params) {
  const images = (params.media ?? []).filter((m) => accepts(ACCEPTS, m.mimeType));
  // `exec resume` has no --sandbox: a resumed session keeps the one it started with.
  const args = params.sessionId
    ? ["exec", "resume", params.sessionId, "--json", "--skip-git-repo-check"]
    : ["exec", "--json", "--skip-git-repo-check", "--sandbox", "read-only"];
  const model = witness();
  if (model) {
    const provider = `{name="mmconform-witness", base_url="${model.v1}", wire_api="responses", env_key="MMCONFORM_CODEX_KEY"}`;
    args.push("-c", "model_provider=mmconform", "-c", `model_providers.mmconform=${provider}`, "-c", `model=${process.env.MMCONFORM_CODEX_MODEL || "gpt-5.5"}`);
  }
  args.push(params.prompt);
  let cleanup;
  if (images.length > 0) {
    const files = await mediaFiles(images);
    cleanup = files.cleanup;
    for (const path of files.paths) args.push("--image", path);
  }
  const env = model ? { MMCONFORM_CODEX_KEY: "mmconform-dummy-key" } : {};
  return { args, env, cleanup };
}

function messageText(item) {
  if (typeof item.text === "string") return item.text;
  if (Array.isArray(item.content)) {
    return item.content.filter((p) => isObject(p) && typeof p.text === "string").map((p) => p.text).join("");
  }
  return "";
}

function extract(line, state) {
  switch (line.type) {
    case "thread.started":
      if (typeof line.thread_id === "string") state.sessionId = line.thread_id;
      return null;
    case "item.completed": {
      const item = isObject(line.item) ? line.item : {};
      if (item.type === "agent_message") {
        const text = messageText(item);
        state.text += text;
        return text ? { type: "text", text } : null;
      }
      if (item.type === "error") return { type: "error", message: String(item.message ?? "Codex item error"), code: "CLI_ERROR" };
      return null;
    }
    case "turn.completed":
      if (isObject(line.usage)) state.usage = line.usage;
      return null;
    case "turn.failed":
      return { type: "error", message: String(line.error?.message ?? line.message ?? "turn failed"), code: "turn_failed" };
    case "error":
      return { type: "error", message: String(line.message ?? "Codex error"), code: "CLI_ERROR" };
    default:
      return null;
  }
}

export default cliRuntime(
  { command: "codex", prepare, extract },
  { acceptsInbound: ACCEPTS, emitsOutbound: false },
);
