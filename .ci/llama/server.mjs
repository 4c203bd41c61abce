// An OpenAI-compatible chat server on a real llama.cpp model, for the persona
// tests' CI stage: llama.cpp's prebuilt CPU addon from npm node-llama-cpp,
// and the tiny model .ci/llama/tiny-model.py writes. It answers
//
//   GET  /v1/models             the one model, by the name given
//   POST /v1/chat/completions   greedy (temperature 0) or seeded sampling,
//                               streamed as server-sent events when asked,
//                               with usage: prompt, cached and completion
//                               tokens
//   POST /grader/v1/chat/completions
//                               a scripted grader for llm-rubric asserts,
//                               no model: its answer is the judgement the
//                               rubric spells out (see grade below)
//
// and records every request body it receives, as received, so a check can compare the system message with the bytes
// soulc composes. Requests are served one at a time on one sequence; a
// request whose tokens begin as the previous one's did reuses that part of
// the KV state, and reports it as cached tokens.
//
//   LLAMA_NPM_DIR=DIR node server.mjs MODEL.gguf NAME RECORD [PORT]
//
// DIR holds node_modules/node-llama-cpp. Prints "listening PORT" once it
// accepts connections (PORT 0 or none: a free one). RECORD gets a line
// {"base64": BODY, "route": "model" or "grader", "systemTokens": N} for each
// request, in the order they arrive: the body's bytes exactly, and for a
// model request whose first message is the system's, how many of the
// prompt's tokens that message makes (its whole block, markers included: the
// most of the prompt a request with the same soul can find cached).
import { createServer } from "node:http";
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const npmDir = process.env.LLAMA_NPM_DIR;
if (!npmDir) {
    console.error("server.mjs: set LLAMA_NPM_DIR to the folder node-llama-cpp is installed in");
    process.exit(2);
}
const { getLlama } = await import(
    pathToFileURL(createRequire(npmDir + "/").resolve("node-llama-cpp")).href);

const [modelPath, modelName, record, portText] = process.argv.slice(2);
if (!modelPath || !modelName || !record) {
    console.error("usage: node server.mjs MODEL.gguf NAME RECORD [PORT]");
    process.exit(2);
}

const llama = await getLlama({ gpu: false, build: "never" });
const model = await llama.loadModel({ modelPath });
const contextSize = 4096;
const context = await model.createContext({ contextSize, sequences: 1, threads: 1 });
const sequence = context.getSequence();

// Phi-3's chat format (the model's vocabulary): the markers are special
// tokens, the messages' text never is, whatever it holds.
const special = (text) => model.tokenize(text, true);
const plain = (text) => model.tokenize(text, false);
function promptTokens(messages) {
    const tokens = [];
    for (const m of messages) {
        tokens.push(...special(`<|${m.role}|>`), ...plain("\n" + m.content), ...special("<|end|>"), ...plain("\n"));
    }
    tokens.push(...special("<|assistant|>"), ...plain("\n"));
    return tokens;
}

// A model request's system block in tokens, or null.
function systemTokens(raw) {
    try {
        const m = JSON.parse(raw.toString("utf8")).messages;
        if (!Array.isArray(m) || !m[0] || m[0].role !== "system" || typeof m[0].content !== "string") return null;
        return promptTokens([m[0]]).length - promptTokens([]).length;
    } catch {
        return null;
    }
}

// The grader's judgement: the rubric (the last user message's text between
// the last <Rubric> and </Rubric>) spells it out as words "pass=true" or
// "pass=false" and "score=NUMBER", each optional; the answer is a JSON object
// {"reason", "pass", "score"} with what the rubric gave, and "wrap=prose"
// puts a sentence around it. Every grader's request of an llm-rubric, soulc's
// or promptfoo's, ends with <Rubric>\nRUBRIC\n</Rubric>.
function grade(body) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const last = [...messages].reverse().find((m) => m && m.role === "user" && typeof m.content === "string");
    if (!last) return null;
    const open = last.content.lastIndexOf("<Rubric>\n");
    const close = last.content.lastIndexOf("\n</Rubric>");
    if (open < 0 || close < open) return null;
    const rubric = last.content.slice(open + "<Rubric>\n".length, close);
    const judgement = { reason: "scripted: " + rubric.replace(/\s+/g, " ").trim() };
    const pass = rubric.match(/\bpass=(true|false)\b/);
    const score = rubric.match(/\bscore=([0-9.]+)\b/);
    if (pass) judgement.pass = pass[1] === "true";
    if (score) judgement.score = Number(score[1]);
    const text = JSON.stringify(judgement);
    return /\bwrap=prose\b/.test(rubric) ? "Here is my judgement:\n" + text + "\nThat is all." : text;
}

function answerGrader(body, res) {
    const content = grade(body);
    if (content === null) return fail(res, 400, "no <Rubric> in the last user message");
    const id = "grade-" + Date.now().toString(36);
    const created = Math.floor(Date.now() / 1000);
    const model = typeof body.model === "string" ? body.model : "grader";
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    if (body.stream === true) {
        const chunk = (choices, extra = {}) =>
            `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra })}\n\n`;
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.write(chunk([{ index: 0, delta: { role: "assistant", content }, finish_reason: null }]));
        res.write(chunk([{ index: 0, delta: {}, finish_reason: "stop" }]));
        if (body.stream_options && body.stream_options.include_usage) res.write(chunk([], { usage }));
        res.end("data: [DONE]\n\n");
        return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id, object: "chat.completion", created, model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }], usage }));
}

function fail(res, status, message) {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message, type: status === 400 ? "invalid_request_error" : "server_error", code: status } }));
}

let queue = Promise.resolve();
const serially = (job) => (queue = queue.then(job, job));

async function complete(body, res) {
    const messages = body.messages;
    if (!Array.isArray(messages) || messages.length === 0
        || !messages.every((m) => m && typeof m.role === "string" && typeof m.content === "string"))
        return fail(res, 400, "messages must be a list of {role, content} with string content");
    const tokens = promptTokens(messages);
    const maxTokens = Number.isInteger(body.max_tokens) && body.max_tokens > 0 ? body.max_tokens : 64;
    if (tokens.length + maxTokens > contextSize)
        return fail(res, 400, `the request needs ${tokens.length + maxTokens} tokens, more than the context's ${contextSize}`);

    // The KV state already holding the start of this prompt is kept; at
    // least the last token is evaluated again, for its logits.
    await sequence.adaptStateToTokens(tokens, false);
    let cached = Math.min(sequence.nextTokenIndex, tokens.length - 1);
    if (sequence.nextTokenIndex > cached)
        await sequence.eraseContextTokenRanges([{ start: cached, end: sequence.nextTokenIndex }]);
    cached = sequence.nextTokenIndex;

    const id = "chatcmpl-" + Date.now().toString(36);
    const created = Math.floor(Date.now() / 1000);
    const stream = body.stream === true;
    const chunk = (choices, extra = {}) =>
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: modelName, choices, ...extra })}\n\n`;
    if (stream) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.write(": a comment line, as servers send them\n\n");
        res.write(chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]));
    }
    const temperature = typeof body.temperature === "number" ? body.temperature : 0;
    const options = temperature > 0 ? { temperature, seed: Number.isInteger(body.seed) ? body.seed : 1 } : { temperature: 0 };
    const generated = [];
    let text = "";
    let finish = "length";
    for await (const token of sequence.evaluate(tokens.slice(cached), options)) {
        if (model.isEogToken(token)) {
            finish = "stop";
            break;
        }
        generated.push(token);
        const now = model.detokenize(generated);
        // A character split over tokens waits for its last one.
        if (!now.endsWith("\uFFFD")) {
            const piece = now.slice(text.length);
            text = now;
            if (stream && piece)
                res.write(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]));
        }
        if (generated.length >= maxTokens)
            break;
    }
    const final = model.detokenize(generated);
    if (stream && final.length > text.length)
        res.write(chunk([{ index: 0, delta: { content: final.slice(text.length) }, finish_reason: null }]));
    const usage = {
        prompt_tokens: tokens.length,
        completion_tokens: generated.length,
        total_tokens: tokens.length + generated.length,
        prompt_tokens_details: { cached_tokens: cached },
    };
    if (stream) {
        res.write(chunk([{ index: 0, delta: {}, finish_reason: finish }]));
        if (body.stream_options && body.stream_options.include_usage)
            res.write(chunk([], { usage }));
        res.end("data: [DONE]\n\n");
    } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({
            id, object: "chat.completion", created, model: modelName,
            choices: [{ index: 0, message: { role: "assistant", content: final }, finish_reason: finish }],
            usage,
        }));
    }
}

const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
        const raw = Buffer.concat(chunks);
        const path = (req.url || "").replace(/\?.*$/, "");
        if (req.method === "GET" && path === "/v1/models") {
            res.writeHead(200, { "content-type": "application/json" });
            res.end(JSON.stringify({ object: "list", data: [{ id: modelName, object: "model", owned_by: "ci" }] }));
            return;
        }
        const route = path === "/v1/chat/completions" ? "model" : path === "/grader/v1/chat/completions" ? "grader" : null;
        if (req.method !== "POST" || !route)
            return fail(res, 404, `no ${req.method} ${path} here`);
        appendFileSync(record, JSON.stringify({ base64: raw.toString("base64"), route,
            ...(route === "model" ? { systemTokens: systemTokens(raw) } : {}) }) + "\n");
        let body;
        try {
            body = JSON.parse(raw.toString("utf8"));
        } catch (e) {
            return fail(res, 400, "the body is not JSON: " + e.message);
        }
        if (route === "grader")
            return answerGrader(body, res);
        serially(() => complete(body, res).catch((e) => {
            if (!res.headersSent)
                fail(res, 500, String(e && e.message || e));
            else
                res.end();
        }));
    });
});
server.listen(Number(portText || 0), "127.0.0.1", () => {
    console.log(`listening ${server.address().port}`);
});
