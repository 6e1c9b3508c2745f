// A small AgentRuntime for trying the bridge (and the test-suite): it hands the prompt
// and every accepted attachment to its model in one user turn, the way a CLI runtime
// does, and replies with the model's answer. Its model is an OpenAI-compatible
// endpoint: $MMCONFORM_WITNESS_URL when mmconform runs with --witness.
import { readFile } from "node:fs/promises";

const ACCEPTS = ["image/", "audio/wav", "application/pdf"];

function accepted(mime) {
  return ACCEPTS.some((a) => (a.endsWith("/") ? mime.startsWith(a) : mime === a));
}

async function part(media) {
  const data = media.base64 ?? (await readFile(media.filePath)).toString("base64");
  if (media.mimeType.startsWith("image/")) {
    return { type: "image_url", image_url: { url: `data:${media.mimeType};base64,${data}` } };
  }
  if (media.mimeType.startsWith("audio/")) {
    return { type: "input_audio", input_audio: { data, format: "wav" } };
  }
  return { type: "file", file: { file_data: `data:${media.mimeType};base64,${data}`, filename: media.fileName ?? "document.pdf" } };
}

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(timer); reject(new Error("aborted")); });
  });

export default {
  mediaCapabilities: { acceptsInbound: ACCEPTS, emitsOutbound: false },

  async *execute(params) {
    const started = Date.now();
    const sessionId = params.sessionId ?? `fake-${process.pid}`;
    const done = (text, aborted) => ({ type: "done", result: { text, sessionId, durationMs: Date.now() - started, usage: {}, aborted } });
    yield { type: "thinking", text: "reading the request" };
    try {
      await sleep(200, params.abortSignal);
    } catch {
      yield { type: "error", message: "aborted", code: "ABORTED" };
      yield done("", true);
      return;
    }
    const content = [{ type: "text", text: params.prompt }];
    for (const media of params.media ?? []) {
      if (accepted(media.mimeType)) content.push(await part(media));
    }
    const base = process.env.MMCONFORM_WITNESS_URL;
    let text = "no model configured";
    if (base) {
      const answer = await fetch(`${base.replace(/\/$/, "")}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "fake", messages: [{ role: "user", content }] }),
      });
      const body = await answer.json();
      text = body?.choices?.[0]?.message?.content ?? "";
    }
    yield { type: "text", text };
    yield done(text, false);
  },
};
