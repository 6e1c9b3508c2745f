// An AgentRuntime around Gemini CLI (`gemini`), handing it media as RemoteClaw's Gemini
// runtime does: each attachment written to a fresh temporary directory and named in the
// prompt as `@/path/to/file` (Gemini CLI reads `@path` references itself), the prompt
// given with `--prompt`, output read as `--output-format stream-json`; `sessionId`
// resumes with `--resume`.
//
// Its model: with mmconform's witness (MMCONFORM_WITNESS_URL), GOOGLE_GEMINI_BASE_URL is
// the witness's origin (Gemini CLI calls `.../v1beta/models/M:streamGenerateContent`)
// and GEMINI_API_KEY a dummy. Gemini CLI also needs its auth method chosen in
// ~/.gemini/settings.json (`{"security":{"auth":{"selectedType":"gemini-api-key"}}}`).
//
// Gemini CLI reads `@path` only inside its workspace (the working directory and any
// --include-directories): the temporary directory RemoteClaw uses is outside it. The
// export `inWorkspace` writes the files into a fresh directory inside the working
// directory instead.
//
//   node ../bridge.mjs gemini-cli.mjs               # files in the temporary directory
//   node ../bridge.mjs gemini-cli.mjs inWorkspace   # files inside the workspace
import { accepts, cliRuntime, isObject, mediaFiles, witness } from "./cli-runtime.mjs";

const ACCEPTS = ["image/", "audio/", "video/", "application/pdf"];

const prepareIn = (parent) => async (params) => {
  const media = (params.media ?? []).filter((m) => accepts(ACCEPTS, m.mimeType));
  let prompt = params.prompt;
  let cleanup;
  if (media.length > 0) {
    const files = await mediaFiles(media, parent?.(params));
    cleanup = files.cleanup;
    prompt = `${files.paths.map((p) => `@${p}`).join(" ")} ${prompt}`;
  }
  const args = ["--output-format", "stream-json", "--prompt", prompt];
  if (params.sessionId) args.push("--resume", params.sessionId);
  const model = witness();
  const env = model
    ? { GOOGLE_GEMINI_BASE_URL: model.origin, GEMINI_API_KEY: process.env.GEMINI_API_KEY || "mmconform-dummy-key" }
    : {};
  return { args, env, cleanup };
};

function extract(line, state) {
  switch (line.type) {
    case "init":
      if (typeof line.session_id === "string") state.sessionId = line.session_id;
      return null;
    case "message":
      if (line.role !== "assistant" || typeof line.content !== "string") return null;
      state.text += line.content;
      return { type: "text", text: line.content };
    case "error":
      return { type: "error", message: String(line.message ?? "Gemini CLI reported an error"), code: typeof line.severity === "string" ? line.severity : "CLI_ERROR" };
    case "result":
      if (isObject(line.stats)) state.usage = line.stats;
      if (line.status === "error") {
        return { type: "error", message: String(line.error?.message ?? "Gemini CLI run failed"), code: "CLI_ERROR" };
      }
      return null;
    default:
      return null;
  }
}

const capabilities = { acceptsInbound: ACCEPTS, emitsOutbound: false };

export default cliRuntime({ command: "gemini", prepare: prepareIn(undefined), extract }, capabilities);

export const inWorkspace = cliRuntime(
  { command: "gemini", prepare: prepareIn((params) => params.workingDirectory ?? process.cwd()), extract },
  capabilities,
);
