// An AgentRuntime around Claude Code (`claude`), handing it media as RemoteClaw's
// Claude runtime does: with media, `-p --input-format stream-json` and one user
// message on stdin whose content is base64 `image` blocks (and, here, `document` blocks
// for PDFs) followed by the prompt; without, `--print PROMPT`. A filePath-only
// attachment is read into base64 first; `sessionId` resumes with `--resume`.
//
// Its model: with mmconform's witness (MMCONFORM_WITNESS_URL), ANTHROPIC_BASE_URL is the
// witness's origin (Claude Code calls `$ANTHROPIC_BASE_URL/v1/messages`) and the key a
// dummy, which the witness never checks.
//
//   node ../bridge.mjs claude-code.mjs
import { accepts, bytesOf, cliRuntime, isObject, witness } from "./cli-runtime.mjs";

const ACCEPTS = ["image/", "application/pdf"];

async function prepare(params) {
  const blocks = [];
  for (const media of params.media ?? []) {
    if (!accepts(ACCEPTS, media.mimeType)) continue;
    const data = (await bytesOf(media)).toString("base64");
    const source = { type: "base64", media_type: media.mimeType, data };
    blocks.push({ type: media.mimeType.startsWith("image/") ? "image" : "document", source });
  }
  const args = ["--output-format", "stream-json", "--verbose"];
  if (params.sessionId) args.push("--resume", params.sessionId);
  if (params.systemPrompt) args.push("--append-system-prompt", params.systemPrompt);
  let stdin;
  if (blocks.length > 0) {
    args.push("-p", "--input-format", "stream-json");
    const content = [...blocks, { type: "text", text: params.prompt }];
    stdin = JSON.stringify({ type: "user", message: { role: "user", content } }) + "\n";
  } else {
    args.push("--print", params.prompt);
  }
  const model = witness();
  const env = model
    ? { ANTHROPIC_BASE_URL: model.origin, ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY || "mmconform-dummy-key" }
    : {};
  return { args, stdin, env };
}

function extract(line, state) {
  if (typeof line.session_id === "string") state.sessionId = line.session_id;
  if (line.type === "assistant" && isObject(line.message) && Array.isArray(line.message.content)) {
    const text = line.message.content
      .filter((b) => isObject(b) && b.type === "text" && typeof b.text === "string")
      .map((b) => b.text)
      .join("");
    if (!text) return null;
    state.text += text;
    return { type: "text", text };
  }
  if (line.type === "result") {
    if (isObject(line.usage)) state.usage = line.usage;
    if (line.is_error === true) {
      return { type: "error", message: String(line.result || line.subtype || "Claude Code reported an error"), code: "CLI_ERROR" };
    }
  }
  return null;
}

export default cliRuntime(
  { command: "claude", prepare, extract },
  { acceptsInbound: ACCEPTS, emitsOutbound: false },
);
