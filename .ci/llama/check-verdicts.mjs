// The checks of .ci/persona-tests-oracle (read its header): soulc test
// against the llama.cpp server, on generated personas, and promptfoo on what
// `soulc test --export-promptfoo` writes. Environment: SOULC, ENDPOINT
// (http://127.0.0.1:PORT/v1), WORK (a folder to write in), RECORD (the
// server's record of request bodies), PROMPTFOO (promptfoo's entry script)
// and PROMPTFOO_NODE (a Node that runs it), MODEL (the name the server
// answers to; default gpt-4o-mini).
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const { SOULC, ENDPOINT, WORK, RECORD, PROMPTFOO, PROMPTFOO_NODE } = process.env;
// The tiny model goes by a name promptfoo has prices for: promptfoo 0.123.1
// gives a cost only for a model its price table knows, and then takes the
// prices in the provider's config over the table's, as soulc does for any
// model.
const MODEL = process.env.MODEL || "gpt-4o-mini";
// The scripted grader of llm-rubric asserts (.ci/llama/server.mjs).
const GRADER = ENDPOINT.replace(/\/v1$/, "/grader/v1");
const runtimes = ["toolnexus", "openclaw", "hermes"];
const slots = ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md", "HEARTBEAT.md", "MEMORY.md"];

// A fixed sequence of pseudo-random numbers (mulberry32).
let state = 20261205;
function rand() {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(rand() * list.length)];

const pieces = [
    "You are Ava, a careful research assistant.", "Réponds en français si on te parle français.",
    "日本語の質問には日本語で答える。", "Use {{ name }} as written; it is not a template.",
    "{% if formal %}Be formal.{% endif %}", "Never reveal <|end|> or <|system|> markers.",
    "Emoji stay: 🦊 ✨", "Tabs\tand  double  spaces stay.", "- a list item", "## A heading",
    "`code` and **bold**", "Trailing spaces   ", "Ünïcödé everywhere: ß, İ, ﬁ.",
];
function slotText(lines, crlf, bom) {
    const body = Array.from({ length: lines }, () => pick(pieces)).join(crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n");
    return (bom ? "\uFEFF" : "") + body;
}

// Personas: ordinary ones, and one with a 2 MiB MEMORY.md (its soul is more
// than the model's context, so the server refuses it, after recording it).
const personas = [];
for (let p = 0; p < 6; ++p) {
    const dir = join(WORK, "personas", `p${p}`);
    mkdirSync(dir, { recursive: true });
    for (const name of slots) {
        if (rand() < 0.25 && name !== "SOUL.md") continue;
        writeFileSync(join(dir, name), slotText(1 + Math.floor(rand() * 4), rand() < 0.4, rand() < 0.15));
    }
    personas.push({ dir, large: false });
}
{
    const dir = join(WORK, "personas", "large");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "SOUL.md"), slotText(3, true, false));
    const lines = [];
    for (let bytes = 0; bytes < 2 * 1024 * 1024 - 200;) {
        lines.push(pick(pieces) + "\n");
        bytes += Buffer.byteLength(lines[lines.length - 1]);
    }
    writeFileSync(join(dir, "MEMORY.md"), lines.join(""));
    personas.push({ dir, large: true });
}

const cases = [
    { vars: { message: "Who are you?" } },
    { vars: { message: "Wie geht's? ☕ {{ not a var }}" } },
    { vars: { messages: [
        { role: "user", content: "Hello." },
        { role: "assistant", content: "Hi, I am here." },
        { role: "user", content: "Say it again, with {% raw %}." },
    ] } },
];
const turns = (c) => (c.vars.messages ? c.vars.messages : [{ role: "user", content: c.vars.message }]);

// The requests the server got since the last call: the model's, each
// {raw, systemTokens}, and the grader's bodies, parsed.
let recordOffset = 0;
let graderRequests = [];
function newRequests() {
    const lines = readFileSync(RECORD, "utf8").split("\n").filter(Boolean);
    const fresh = lines.slice(recordOffset).map((l) => JSON.parse(l));
    recordOffset = lines.length;
    graderRequests = fresh.filter((r) => r.route === "grader").map((r) => JSON.parse(Buffer.from(r.base64, "base64").toString("utf8")));
    return fresh.filter((r) => r.route !== "grader").map((r) => ({ raw: Buffer.from(r.base64, "base64"), systemTokens: r.systemTokens }));
}

const failures = [];
const fail = (what) => {
    failures.push(what);
    if (failures.length <= 20) console.log("MISMATCH " + what);
};
let checked = { requests: 0, asserts: 0, tests: 0, cached: 0, runs: 0, promptfooRequests: 0, promptfooTests: 0, promptfooAsserts: 0,
    costAsserts: 0, rubricAsserts: 0, graderRequests: 0, promptfooCost: 0, promptfooRubric: 0, promptfooGraderRequests: 0,
    changedSouls: 0 };
// The cached figures: each same-soul request's cached tokens over the soul's
// tokens, and each changed soul's.
const cachedFigures = { soulTokens: [], cached: [], changedCached: [], changedSoulTokens: [] };
const rubricCount = (tests) => tests.reduce((n, t) => n + t.assert.filter((a) => /llm-rubric$/.test(a.type)).length, 0);

// promptfoo on the export of `file`: its requests must carry the same soul
// and turns, its outputs be soulc's, and its verdicts soulc's, test by test
// and assert by assert.
function promptfooAgrees(where, dir, runtime, file, soul, tests, ours) {
    const out = join(WORK, "promptfoo");
    const exported = spawnSync(SOULC, ["test", "--export-promptfoo", out, "--force", "--runtime", runtime,
        "--tests", file, "--endpoint", ENDPOINT, "--model", MODEL, dir], { encoding: "utf8" });
    if (exported.status !== 0)
        return fail(`${where}: --export-promptfoo exited ${exported.status}: ${exported.stderr.trim()}`);
    const result = join(out, "out.json");
    const run = spawnSync(PROMPTFOO_NODE, [PROMPTFOO, "eval", "-c", join(out, "promptfooconfig.yaml"), "-o", result,
        "--no-cache", "-j", "1", "--no-progress-bar", "--no-table"], {
        encoding: "utf8", maxBuffer: 64 << 20, cwd: out,
        env: { ...process.env, HOME: join(WORK, "promptfoo-home"), PROMPTFOO_DISABLE_TELEMETRY: "1",
            PROMPTFOO_DISABLE_UPDATE: "1", PROMPTFOO_CONFIG_DIR: join(WORK, "promptfoo-home"),
            // promptfoo's OpenAI provider wants a key even for a local server,
            // which ignores it.
            OPENAI_API_KEY: "unused-by-the-local-server" },
    });
    // 100: a test failed, as some do here.
    if (run.status !== 100 && run.status !== 0)
        return fail(`${where}: promptfoo exited ${run.status}: ${(run.stderr || run.stdout).trim().slice(-2000)}`);
    checkRequests(`${where} (promptfoo)`, soul, tests.map((t) => ({ vars: t.vars })), { promptfoo: true });
    checkGrader(`${where} (promptfoo)`, tests, null);
    checked.promptfooGraderRequests += graderRequests.length;
    let results;
    try {
        results = JSON.parse(readFileSync(result, "utf8")).results.results;
    } catch (e) {
        return fail(`${where}: promptfoo's ${result} cannot be read: ${e.message}`);
    }
    if (results.length !== tests.length)
        return fail(`${where}: promptfoo has ${results.length} results, not ${tests.length}`);
    for (const r of results) {
        const k = r.testIdx;
        const t = ours[k];
        checked.promptfooTests++;
        const output = r.response && r.response.output;
        if (output !== t.output)
            fail(`${where}: test ${k}: promptfoo's output ${JSON.stringify(output)} is not soulc's ${JSON.stringify(t.output)}`);
        if (r.success !== t.pass)
            fail(`${where}: test ${k} (${t.description}): promptfoo ${r.success}, soulc ${t.pass}`);
        const parts = (r.gradingResult && r.gradingResult.componentResults) || [];
        if (parts.length !== t.asserts.length)
            fail(`${where}: test ${k}: promptfoo judged ${parts.length} asserts, soulc ${t.asserts.length}`);
        parts.forEach((part, j) => {
            checked.promptfooAsserts++;
            const a = t.asserts[j];
            if (a && /(^|-)cost$/.test(a.type)) checked.promptfooCost++;
            if (a && /llm-rubric$/.test(a.type)) checked.promptfooRubric++;
            if (a && part.pass !== a.pass)
                fail(`${where}: test ${k} assert ${j} ${a.type} ${JSON.stringify(a.value)} on ${JSON.stringify(t.output)}: promptfoo ${part.pass} (${part.reason}), soulc ${a.pass} (${a.reason})`);
        });
    }
}

// A file the CLI's --endpoint and --model override: its own provider points
// at a port nothing listens on. Its prices (promptfoo's cost, or inputCost
// and outputCost) and its grader, the scripted one.
function testFile(tests, prices) {
    return JSON.stringify({
        description: "generated",
        providers: [{ id: "openai:chat:nothing", config: { apiBaseUrl: "http://127.0.0.1:9/v1", temperature: 0, max_tokens: 24, seed: 1,
            ...prices.config } }],
        defaultTest: { options: { provider: { id: "openai:chat:grader", config: { apiBaseUrl: GRADER } } } },
        tests,
    }, null, 2);
}
const priceList = [
    { config: { inputCost: 0.000001, outputCost: 0.000003 }, input: 0.000001, output: 0.000003 },
    { config: { cost: 0.000002 }, input: 0.000002, output: 0.000002 },
];

// The grader's requests since the last run: one for each llm-rubric assert
// of `tests`, to the grader's model, each ending with the rubric of one of
// them (and, when `outputs` is given, holding that test's output).
function checkGrader(where, tests, outputs) {
    const want = rubricCount(tests);
    if (graderRequests.length !== want)
        return fail(`${where}: the grader got ${graderRequests.length} requests, not ${want}`);
    const rubrics = new Set(tests.flatMap((t) => t.assert.filter((a) => /llm-rubric$/.test(a.type)).map((a) => a.value)));
    for (const body of graderRequests) {
        const m = body.messages || [];
        const last = m.length ? String(m[m.length - 1].content) : "";
        const rubric = (last.match(/<Rubric>\n([\s\S]*)\n<\/Rubric>\s*$/) || [])[1];
        if (!rubrics.has(rubric)) fail(`${where}: a grader's request ends with no rubric of the file: ${JSON.stringify(last.slice(-200))}`);
        if (body.model !== "grader") fail(`${where}: a grader's request names the model ${body.model}, not grader`);
        if (outputs && !outputs.some((o) => last.includes(`<Output>\n${o}\n</Output>`)))
            fail(`${where}: a grader's request holds no test's output: ${JSON.stringify(last.slice(0, 200))}`);
    }
}

function soulcTest(dir, runtime, file) {
    const r = spawnSync(SOULC, ["test", "--runtime", runtime, "--tests", file, "--endpoint", ENDPOINT,
        "--model", MODEL, "--json", dir], { encoding: "utf8", maxBuffer: 64 << 20 });
    checked.runs++;
    let json = null;
    try {
        json = JSON.parse(r.stdout);
    } catch {
        // stays null
    }
    return { status: r.status, json, stderr: r.stderr };
}

// The model's requests since the last run, as the server recorded them, or
// null when they are not the ones expected.
function checkRequests(where, soul, expected, { promptfoo = false } = {}) {
    const records = newRequests();
    const bodies = records.map((r) => r.raw);
    if (bodies.length !== expected.length) {
        fail(`${where}: the server got ${bodies.length} requests, not ${expected.length}`);
        return null;
    }
    bodies.forEach((raw, i) => {
        if (promptfoo) checked.promptfooRequests++;
        else checked.requests++;
        let body;
        try {
            body = JSON.parse(raw.toString("utf8"));
        } catch {
            return fail(`${where}: request ${i} is not JSON`);
        }
        const m = body.messages || [];
        if (!m[0] || m[0].role !== "system" || !Buffer.from(String(m[0].content), "utf8").equals(soul))
            fail(`${where}: request ${i}'s system message is not the composed soul (${Buffer.byteLength(String(m[0] && m[0].content))} bytes, compose ${soul.length})`);
        const want = turns(expected[i]);
        const sent = m.slice(1).map((t) => ({ role: t.role, content: t.content }));
        if (JSON.stringify(sent) !== JSON.stringify(want))
            fail(`${where}: request ${i}'s turns ${JSON.stringify(sent)} are not ${JSON.stringify(want)}`);
        if (!promptfoo && (body.stream !== true || !body.stream_options || body.stream_options.include_usage !== true))
            fail(`${where}: request ${i} does not stream with usage`);
        if (body.temperature !== 0 || body.max_tokens !== 24 || body.seed !== 1 || body.model !== MODEL)
            fail(`${where}: request ${i} has temperature ${body.temperature}, max_tokens ${body.max_tokens}, seed ${body.seed}, model ${body.model}`);
    });
    return records;
}

const never = "qqzx-not-in-any-output";
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
// The rubrics of llm-rubric asserts, with the scripted grader's judgement in
// them (.ci/llama/server.mjs), and the verdict of llm-rubric and
// not-llm-rubric on each.
const rubrics = [
    { value: "The reply stays in character. pass=true score=1", pass: true },
    { value: "The reply cites its source. pass=false score=0", pass: false },
    { value: "The reply is partly on topic. pass=true score=0.4 wrap=prose", pass: true },
    { value: "The reply is short. pass=false", pass: false },
    { value: "The reply is polite. pass=true score=0.75 wrap=prose", pass: true },
];

// Asserts of every kind with the verdict each must get on `output`, whose
// request took `usage` tokens at `prices`.
function assertsFor(output, usage, prices) {
    const list = [];
    const add = (assert, pass) => list.push({ assert, pass });
    const mid = output.length > 6 ? output.slice(2, Math.min(output.length - 1, 12)) : output;
    const ascii = (output.match(/[A-Za-z]{3,}/g) || []).sort((a, b) => b.length - a.length)[0];
    let isJson = true;
    try {
        JSON.parse(output);
    } catch {
        isJson = false;
    }
    add({ type: "contains", value: mid }, true);
    add({ type: "contains", value: never }, false);
    add({ type: "not-contains", value: mid }, false);
    add({ type: "not-contains", value: never }, true);
    add({ type: "equals", value: output }, true);
    add({ type: "equals", value: output + "!" }, false);
    add({ type: "not-equals", value: output }, false);
    add({ type: "starts-with", value: output.slice(0, 3) }, true);
    add({ type: "starts-with", value: never }, false);
    add({ type: "not-starts-with", value: never }, true);
    add({ type: "contains-any", value: [never, mid] }, true);
    add({ type: "contains-any", value: [never, never + "2"] }, false);
    add({ type: "contains-all", value: [mid, output.slice(0, 2)] }, true);
    add({ type: "contains-all", value: [mid, never] }, false);
    add({ type: "not-contains-any", value: [never, mid] }, false);
    add({ type: "not-contains-all", value: [mid, never] }, true);
    add({ type: "regex", value: escape(mid) }, true);
    add({ type: "regex", value: "^" + escape(never) }, false);
    add({ type: "not-regex", value: escape(mid) }, false);
    add({ type: "is-json" }, isJson);
    add({ type: "not-is-json" }, !isJson);
    add({ type: "latency", threshold: 600000 }, true);
    add({ type: "latency", threshold: 0 }, false);
    // The cost, from the first run's tokens (greedy decoding: the same again),
    // never on the edge of a threshold.
    const cost = usage.prompt_tokens * prices.input + usage.completion_tokens * prices.output;
    add({ type: "cost", threshold: cost * 2 }, true);
    add({ type: "cost", threshold: cost / 2 }, false);
    add({ type: "not-cost", threshold: cost / 2 }, true);
    add({ type: "not-cost", threshold: cost * 2 }, false);
    const r = rubrics[(output.length + 3) % rubrics.length];
    const r2 = rubrics[(output.length + 1) % rubrics.length];
    add({ type: "llm-rubric", value: r.value }, r.pass);
    add({ type: "not-llm-rubric", value: r2.value }, !r2.pass);
    add({ type: "llm-rubric", value: rubrics[0].value }, true);
    add({ type: "llm-rubric", value: rubrics[1].value }, false);
    add({ type: "not-llm-rubric", value: rubrics[1].value }, true);
    if (ascii) {
        add({ type: "icontains", value: ascii.toUpperCase() }, true);
        add({ type: "not-icontains", value: ascii.toUpperCase() }, false);
        add({ type: "icontains-any", value: [never, ascii.toLowerCase()] }, true);
        add({ type: "icontains-all", value: [ascii.toUpperCase(), never] }, false);
        add({ type: "not-icontains-all", value: [ascii.toUpperCase(), never] }, true);
    }
    return list;
}

// The persona in `dir` with every file's text after a new first line: a soul
// that differs from the persona's in its first bytes of text.
function changedPersona(dir) {
    const copy = join(WORK, "changed", dir.split("/").pop());
    cpSync(dir, copy, { recursive: true, force: true });
    for (const name of readdirSync(copy))
        writeFileSync(join(copy, name), Buffer.concat([Buffer.from("Changed first line.\n"), readFileSync(join(copy, name))]));
    return copy;
}

for (const [p, persona] of personas.entries()) {
    const prices = priceList[p % priceList.length];
    for (const runtime of runtimes) {
        const where = `${persona.dir.split("/").pop()} ${runtime}`;
        const soul = execFileSync(SOULC, ["compose", "--runtime", runtime, persona.dir], { maxBuffer: 64 << 20 });

        // First run: the outputs, and the requests.
        const first = join(WORK, "first.yaml");
        writeFileSync(first, testFile(cases.map((c, i) => ({ description: `case ${i}`, vars: c.vars,
            assert: [{ type: "not-contains", value: never }] })), prices));
        const one = soulcTest(persona.dir, runtime, first);
        checkRequests(`${where} (first run)`, soul, persona.large ? cases.slice(0, 1) : cases);
        if (persona.large) {
            // The soul is larger than the model's context: the server says so,
            // and soulc cannot run the tests.
            if (one.status !== 2 || !/127\.0\.0\.1/.test(one.stderr))
                fail(`${where}: a refused request gave exit ${one.status}: ${one.stderr.trim()}`);
            continue;
        }
        if (one.status !== 0 || !one.json)
            { fail(`${where}: the first run exited ${one.status}: ${one.stderr.trim()}`); continue; }
        const outputs = one.json.tests.map((t) => t.output);
        const usages = one.json.tests.map((t) => t.usage || {});
        if (!usages.every((u) => u.prompt_tokens > 0 && u.completion_tokens >= 0))
            { fail(`${where}: the first run reports no usage: ${JSON.stringify(usages)}`); continue; }

        // Second run: asserts whose verdicts are known from those outputs.
        const tests = [];
        const expect = [];
        cases.forEach((c, i) => {
            const asserts = assertsFor(outputs[i], usages[i], prices);
            const passing = asserts.filter((a) => a.pass);
            tests.push({ description: `case ${i}: every assert`, vars: c.vars, assert: asserts.map((a) => a.assert) });
            expect.push({ pass: false, asserts: asserts.map((a) => a.pass) });
            tests.push({ description: `case ${i}: the passing ones`, vars: c.vars, assert: passing.map((a) => a.assert) });
            expect.push({ pass: true, asserts: passing.map(() => true) });
            // Weighted: 3 of 4 pass, so 0.75 passes a threshold of 0.7 and fails one of 0.8.
            const weighted = [{ ...passing[0].assert, weight: 3 }, { type: "contains", value: never, weight: 1 }];
            tests.push({ description: `case ${i}: weighted, threshold 0.7`, vars: c.vars, threshold: 0.7, assert: weighted });
            expect.push({ pass: true, asserts: [true, false] });
            tests.push({ description: `case ${i}: weighted, threshold 0.8`, vars: c.vars, threshold: 0.8, assert: weighted });
            expect.push({ pass: false, asserts: [true, false] });
        });
        const second = join(WORK, "second.yaml");
        writeFileSync(second, testFile(tests, prices));
        const two = soulcTest(persona.dir, runtime, second);
        const sent = checkRequests(`${where} (second run)`, soul, tests.map((t) => ({ vars: t.vars })));
        checkGrader(`${where} (second run)`, tests, outputs);
        checked.graderRequests += graderRequests.length;
        if (two.status !== 1 || !two.json)
            { fail(`${where}: the second run exited ${two.status} (1 expected): ${two.stderr.trim()}`); continue; }
        two.json.tests.forEach((t, k) => {
            checked.tests++;
            const e = expect[k];
            if (t.output !== outputs[Math.floor(k / 4)])
                fail(`${where}: test ${k}'s output ${JSON.stringify(t.output)} is not the first run's ${JSON.stringify(outputs[Math.floor(k / 4)])}`);
            if (t.pass !== e.pass)
                fail(`${where}: test ${k} (${t.description}) passed ${t.pass}, not ${e.pass}`);
            (t.asserts || []).forEach((a, j) => {
                checked.asserts++;
                if (/(^|-)cost$/.test(a.type)) checked.costAsserts++;
                if (/llm-rubric$/.test(a.type)) checked.rubricAsserts++;
                if (a.pass !== e.asserts[j])
                    fail(`${where}: test ${k} assert ${j} ${a.type} ${JSON.stringify(a.value)} on ${JSON.stringify(t.output)}: ${a.pass}, not ${e.asserts[j]} (${a.reason})`);
            });
            if ((t.asserts || []).length !== e.asserts.length)
                fail(`${where}: test ${k} has ${(t.asserts || []).length} asserts, not ${e.asserts.length}`);
            // The soul was sent just before: all its tokens, as the server
            // counts them, come from the cache.
            const cachedTokens = t.usage && t.usage.cached_tokens;
            const soulTokens = sent && sent[k] ? sent[k].systemTokens : undefined;
            if (!(soulTokens > 0)) fail(`${where}: test ${k}: the server counted no tokens of the soul (${soulTokens})`);
            else if (!(cachedTokens >= soulTokens && cachedTokens < t.usage.prompt_tokens))
                fail(`${where}: test ${k} reports ${cachedTokens} tokens cached of ${t.usage && t.usage.prompt_tokens}; the soul is ${soulTokens}`);
            else {
                checked.cached++;
                cachedFigures.cached.push(cachedTokens);
                cachedFigures.soulTokens.push(soulTokens);
            }
        });
        if (two.json.passed + two.json.failed !== tests.length || two.json.failed !== expect.filter((e) => !e.pass).length)
            fail(`${where}: passed ${two.json.passed}, failed ${two.json.failed}`);
        promptfooAgrees(where, persona.dir, runtime, second, soul, tests, two.json.tests);

        // The soul changed in its first bytes of text, after requests on the
        // old one: only what comes before the change (the runtime's own
        // heading, if any) can be cached, fewer tokens than the new soul has.
        const changedDir = changedPersona(persona.dir);
        const changed = execFileSync(SOULC, ["compose", "--runtime", runtime, changedDir], { maxBuffer: 64 << 20 });
        const once = join(WORK, "changed.yaml");
        writeFileSync(once, testFile([{ description: "case 0", vars: cases[0].vars,
            assert: [{ type: "not-contains", value: never }] }], prices));
        const three = soulcTest(changedDir, runtime, once);
        const sentChanged = checkRequests(`${where} (changed soul)`, changed, cases.slice(0, 1));
        if (three.status !== 0 || !three.json || !sentChanged)
            { fail(`${where}: the changed soul's run exited ${three.status}: ${three.stderr.trim()}`); continue; }
        const c0 = three.json.tests[0].usage || {};
        const changedSoul = sentChanged[0].systemTokens;
        const least = Math.min(...two.json.tests.map((t) => t.usage.cached_tokens));
        if (!(c0.cached_tokens >= 0 && c0.cached_tokens < changedSoul && c0.cached_tokens < least))
            fail(`${where}: the changed soul reports ${c0.cached_tokens} tokens cached; its soul is ${changedSoul}, the same soul's requests had ${least} or more`);
        else {
            checked.changedSouls++;
            cachedFigures.changedCached.push(c0.cached_tokens);
            cachedFigures.changedSoulTokens.push(changedSoul);
        }
    }
}
const range = (list) => (list.length ? `${Math.min(...list)} to ${Math.max(...list)}` : "none");

console.log(`personas ${personas.length} x runtimes ${runtimes.length}: soulc runs ${checked.runs}, requests checked ${checked.requests}, tests ${checked.tests}, asserts ${checked.asserts}, with cached tokens ${checked.cached}`);
console.log(`cached: same soul ${range(cachedFigures.cached)} tokens cached with souls of ${range(cachedFigures.soulTokens)} tokens; changed souls (${checked.changedSouls}) ${range(cachedFigures.changedCached)} cached of ${range(cachedFigures.changedSoulTokens)}`);
console.log(`cost asserts ${checked.costAsserts}, llm-rubric asserts ${checked.rubricAsserts}, grader requests ${checked.graderRequests}`);
console.log(`promptfoo: requests checked ${checked.promptfooRequests}, tests ${checked.promptfooTests}, asserts ${checked.promptfooAsserts} (cost ${checked.promptfooCost}, llm-rubric ${checked.promptfooRubric}), grader requests ${checked.promptfooGraderRequests}`);
const minimum = { requests: 200, tests: 200, asserts: 1500, cached: 200, promptfooRequests: 200, promptfooTests: 200, promptfooAsserts: 1500,
    costAsserts: 150, rubricAsserts: 200, graderRequests: 200, promptfooCost: 150, promptfooRubric: 200, promptfooGraderRequests: 200,
    changedSouls: 15 };
for (const [what, least] of Object.entries(minimum)) {
    if (checked[what] < least) fail(`only ${checked[what]} ${what} checked, at least ${least} expected`);
}
console.log(`mismatches ${failures.length}`);
if (failures.length) {
    console.log("PERSONA TESTS ORACLE FAILED");
    process.exit(1);
}
console.log("PERSONA TESTS ORACLE PASSED");
