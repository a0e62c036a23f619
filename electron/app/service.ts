// The application service: implements every method of shared/api.ts on top of the engine
// (workspace, exam import, CSV readers, grade orchestration, marking, entailment). Shared by the
// Electron shell (IPC) and the browser mode (HTTP); it never imports `electron`. Requests reach
// it already validated by `dispatch` (shared/api.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiFailure, type ApiHandlers, type ApiResponse, type Chip, type GradeProgress, type ReviewRow, type Settings } from '../../shared/api.ts';
import { equationToLatex, equationToSympy, formatErrors, parseEquation, type Equation } from '../../shared/equation/index.ts';
import { questionDomain, realDomain, type Exam } from '../../shared/exam.ts';
import type { Extraction } from '../../shared/extraction.ts';
import { ExamError, parseExamJson, validateExam, type LoadedExam } from '../engine/io/exam.ts';
import { CsvFileError, ResponsesCsvError, parseResponsesCsv } from '../engine/io/csv/responses.ts';
import { parseEquationsCsv } from '../engine/io/csv/equations.ts';
import { marksCsv, studentMarksCsv } from '../engine/io/csv/write.ts';
import { givenExtraction, grade } from '../engine/grade.ts';
import { markEquations } from '../engine/decide/marking.ts';
import { createEngine, type Engine } from '../engine/decide/engine-factory.ts';
import { Workspace, goldKey, type ResponseSummary } from '../engine/store/workspace.ts';
import { OllamaClient } from '../engine/read/ollama/client.ts';
import { DEFAULT_OLLAMA_URL, resolveOllamaUrl } from '../engine/read/ollama/settings.ts';
import { GPU_BOARD_POWER_W, gpuPower } from '../engine/read/ollama/accounting.ts';
import { extraTechniques, TECHNIQUE_INFO, TECHNIQUE_ORDER, type AppTechnique } from './techniques.ts';
import { ModelDownloads } from './model-download.ts';
import { AUDIT_WORDS, brief, report } from './reports.ts';
import { effectiveTotal, reviewCounts, reviewOfResponse } from '../engine/review/state.ts';
import { SympyDetails } from './sympy-detail.ts';

export type ServiceOptions = {
  workspacePath: string;
  mode: 'electron' | 'browser';
  /** Folder holding demo/ and python/ (resources/ in the repository, process.resourcesPath when packaged). */
  resourcesDir: string;
  version?: string;
  /** Where settings are kept (default: beside the workspace). */
  settingsPath?: string;
};

const notFound = (what: string): never => {
  throw new ApiFailure({ code: 'not-found', message: what });
};
const unavailable = (message: string): never => {
  throw new ApiFailure({ code: 'unavailable', message });
};

/** The job name of a re-marking run (scheme changed; nothing is read again). */
const REMARK = 'marking only (the scheme changed)';

/** Energy estimate while a model runs when no GPU is named in Settings (a typical desktop GPU's board power). */
const ASSUMED_GPU_WATTS = 250;

/** Board power for the energy estimate: the GPU named in Settings, else the assumed one. */
export function gpuWatts(gpu: string | undefined): number {
  return (gpu?.trim() ? gpuPower(gpu) : null) ?? ASSUMED_GPU_WATTS;
}

/** Ollama's address the way Ollama's own tools read OLLAMA_HOST (host:port without a scheme too); a bad value is ignored. */
function defaultOllamaUrl(): string {
  try {
    return resolveOllamaUrl(null);
  } catch {
    return DEFAULT_OLLAMA_URL;
  }
}


type Job = {
  examId: string;
  technique: string;
  controller: AbortController;
  state: GradeProgress['state'];
  startedAt: number;
  /** Seconds spent running before the current stretch (pauses excluded). */
  runSeconds: number;
  stretchStart: number;
  /** Responses still to finish when the stretch started, and finished since. */
  finishedAtStart: number;
  tokens: number;
  energyJoules: number;
  message: string | null;
  failed: number;
  run: Promise<void> | null;
  /** The current phase of grade(): when it started and how far it has got. */
  phase: 'reading' | 'marking' | null;
  phaseStart: number;
  phaseDone: number;
  phaseTotal: number;
};

/** A job just started: running, nothing counted yet. */
function newJob(examId: string, technique: string, phase: Job['phase'], phaseTotal: number): Job {
  const now = Date.now();
  return {
    examId,
    technique,
    controller: new AbortController(),
    state: 'running',
    startedAt: now,
    runSeconds: 0,
    stretchStart: now,
    finishedAtStart: 0,
    tokens: 0,
    energyJoules: 0,
    message: null,
    failed: 0,
    run: null,
    phase,
    phaseStart: now,
    phaseDone: 0,
    phaseTotal,
  };
}

export class AppService {
  readonly ws: Workspace;
  private engineP: Promise<Engine> | null = null;
  /** What the engine said about SymPy (missing, wrong Python), in plain words. */
  private engineNotice: string | null = null;
  private job: Job | null = null;
  private readonly downloads = new ModelDownloads();
  private settings: Settings;
  private readonly settingsPath: string;

  constructor(readonly opts: ServiceOptions) {
    this.ws = Workspace.open(opts.workspacePath);
    this.settingsPath = opts.settingsPath ?? (opts.workspacePath === ':memory:' ? '' : `${opts.workspacePath}.settings.json`);
    this.settings = { ollamaUrl: defaultOllamaUrl(), models: [], pythonPath: '', gpu: '' };
    if (this.settingsPath && existsSync(this.settingsPath)) {
      try {
        this.settings = { ...this.settings, ...JSON.parse(readFileSync(this.settingsPath, 'utf8')) };
      } catch {
        /* unreadable settings: defaults */
      }
    }
  }

  /** SymPy worker options: Settings' Python path first; the worker script from resourcesDir (right for dev and packaged). */
  private sympyOptions(): { pythonPath?: string; resourcesPath: string; workerPath: string } {
    const pythonPath = this.settings.pythonPath.trim();
    return { ...(pythonPath ? { pythonPath } : {}), resourcesPath: this.opts.resourcesDir, workerPath: join(this.opts.resourcesDir, 'python', 'worker.py') };
  }

  private engine(): Promise<Engine> {
    this.engineP ??= createEngine({ sympy: this.sympyOptions(), onNotice: (m) => (this.engineNotice = m) }).catch((e) => {
      this.engineP = null;
      throw new ApiFailure({ code: 'unavailable', message: `the symbolic engine could not start: ${(e as Error).message}` });
    });
    return this.engineP;
  }

  /** Whether Ollama answers at the configured address, and its installed models (a quick probe, no retries). */
  private async ollamaState(): Promise<{ reachable: boolean; models: { name: string; size: number | null; digest: string | null; parameterSize: string | null }[]; note: string }> {
    const client = new OllamaClient({ url: this.settings.ollamaUrl, timeoutMs: 1500, retries: 0 });
    try {
      const models = (await client.listModels()).map((m) => ({ name: m.name, size: m.size ?? null, digest: m.digest ? m.digest.replace(/^sha256:/, '') : null, parameterSize: m.parameterSize || null }));
      return { reachable: true, models, note: '' };
    } catch (e) {
      return { reachable: false, models: [], note: `(${(e as Error).message.split('\n')[0]})` };
    }
  }

  /** The model pipeline's state for Settings: usable only when Ollama answers with a model installed. */
  private async ollamaFeature(): Promise<{ available: boolean; note: string }> {
    const { reachable, models } = await this.ollamaState();
    const techniques = TECHNIQUE_ORDER.filter((t) => TECHNIQUE_INFO[t].minModels > 0).join(', ');
    if (!reachable) return { available: false, note: `Ollama is not running at ${this.settings.ollamaUrl}: responses are read by the embedded extractor alone` };
    if (models.length === 0) return { available: false, note: `Ollama at ${this.settings.ollamaUrl} has no models installed` };
    return { available: true, note: `${models.length} model${models.length > 1 ? 's' : ''} at ${this.settings.ollamaUrl} (techniques: ${techniques})` };
  }

  /** The SymPy prover's state for Settings: known once the engine has started. */
  private async sympyFeature(): Promise<{ available: boolean; note: string }> {
    const e = this.engineP ? await this.engineP.catch(() => null) : null;
    const st = e?.sympyStatus() ?? null;
    if (!e) return { available: true, note: `starts with the first grading${this.settings.pythonPath.trim() ? ` (Python: ${this.settings.pythonPath.trim()})` : ''}` };
    if (!st) return { available: false, note: 'not used in this build' };
    const ok = st.state !== 'unavailable';
    return { available: ok, note: `${st.message}${this.engineNotice && !ok ? ` (${this.engineNotice})` : ''}` };
  }

  async close(): Promise<void> {
    this.job?.controller.abort();
    await this.job?.run?.catch(() => {});
    await this.downloads.close();
    if (this.engineP) await (await this.engineP.catch(() => null))?.close();
    this.ws.close();
  }

  private loaded(examId: string): LoadedExam {
    const exam = this.ws.getExam(examId) ?? notFound(`no exam '${examId}' in this workspace`);
    return validateExam(exam);
  }

  private responseId(id: string): number {
    const n = Number(id);
    if (!Number.isInteger(n) || n <= 0) throw new ApiFailure({ code: 'invalid-request', message: `bad response id '${id}'` });
    return n;
  }

  private models: string[] = [];
  /** Seconds to mark one response, as last measured (Z3 and the numeric checks). */
  private markSeconds = 0.05;

  private async techniques(withEngine = false): Promise<Record<string, () => Promise<AppTechnique>>> {
    const engine = withEngine ? await this.engine() : undefined;
    const extra = await extraTechniques({
      ollamaUrl: this.settings.ollamaUrl,
      models: this.models,
      // Model replies are kept beside the workspace, so grading the same responses again costs nothing.
      cachePath: this.opts.workspacePath === ':memory:' ? null : `${this.opts.workspacePath.replace(/\.sqlite$/, '')}.ollama-replies.jsonl`,
      ...(engine ? { engine } : {}),
      onRecord: (_text, _q, rec) => {
        const j = this.job;
        if (!j) return;
        let wall = 0;
        for (const c of rec.calls) {
          if (c.cached) continue;
          j.tokens += c.tokensIn + c.tokensOut;
          wall += c.wallMs;
        }
        j.energyJoules += (wall / 1000) * gpuWatts(this.settings.gpu);
      },
    });
    return extra;
  }

  // ---------- rows and chips ----------

  private chips(r: ResponseSummary, exam: Exam): Chip[] {
    const out: Chip[] = [];
    const x = r.extraction;
    if (!x || !r.marks) out.push('not-graded');
    if (x) {
      if (x.status === 'blank') {
        /* nothing was read: the blank chip says it all */
      } else if (x.source === 'embedded') out.push('extractor');
      else if (x.source === 'given') out.push('imported');
      else if (x.source.startsWith('model:')) out.push('model');
      else if (x.source === 'consensus') out.push(x.flags.includes('models-disagree') ? 'model' : 'consensus');
      else if (x.source === 'manual') out.push('corrected');
      if (x.status === 'blank') out.push('blank');
      if (x.flags.includes('models-disagree')) out.push('disagree');
      if (x.flags.includes('invented')) out.push('invented');
      if (x.flags.includes('attachment')) out.push('attachment');
    }
    if (r.marks?.inconsistent.length) out.push('inconsistent');
    if (r.overrides > 0) out.push('overridden');
    if (reviewOfResponse(r, exam).needsReview) out.push('needs-review');
    return out;
  }

  private excerpt(text: string | null): string {
    return (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 160);
  }

  private row(r: ResponseSummary, exam: Exam, text: string | null, available: number): ReviewRow {
    return {
      responseId: String(r.id),
      studentId: r.studentId,
      questionId: r.questionId,
      excerpt: this.excerpt(text),
      chips: this.chips(r, exam),
      needsReview: reviewOfResponse(r, exam).needsReview,
      marks: r.effective,
      total: effectiveTotal(r),
      available: r.marks?.available ?? available,
      group: r.extraction ? JSON.stringify([...r.extraction.equations].sort()) : null,
      equationCount: r.extraction?.equations.length ?? 0,
    };
  }

  private texts(examId: string): Map<number, string | null> {
    const rows = this.ws.db.prepare('SELECT id, text FROM responses WHERE exam_id = ?').all(examId) as { id: number; text: string | null }[];
    return new Map(rows.map((r) => [r.id, r.text]));
  }

  // ---------- response detail ----------

  /** A reading for the view; `variables` are the question's (a variable named E is not Euler's number). */
  private reading(x: Extraction, variables: readonly string[]) {
    return {
      source: x.source,
      status: x.status,
      equations: x.equations.map((e) => {
        const p = parseEquation(e.source, { variables });
        return { source: e.source, latex: p.ok ? equationToLatex(p.value) : `\\text{${e.source.replace(/[\\{}$&#^_%~]/g, '')}}`, ...(e.span ? { span: e.span } : {}) };
      }),
      flags: x.flags,
      notes: x.notes,
      unread: x.unread,
    };
  }

  /** SymPy's evidence (simplified, solved for the target, limits) for the detail's current equations; cached per list. */
  private readonly sympyDetails = new SympyDetails();

  /** The detail never waits for SymPy: cached evidence is included, else 'pending' while it is computed (the view asks again). */
  private async withSympy(d: ApiResponse<'response.get'>): Promise<ApiResponse<'response.get'>> {
    const sources = (d.current?.equations ?? []).map((e) => e.source);
    if (!sources.length) return d;
    const r = this.ws.getResponseDetail(Number(d.responseId));
    const cq = r ? this.loaded(r.examId).questions.get(d.questionId) : undefined;
    if (!cq) return d;
    const engine = await Promise.race([this.engine().catch(() => null), new Promise<'starting'>((ok) => setTimeout(() => ok('starting'), 0))]);
    if (engine === 'starting') return { ...d, sympy: SympyDetails.pending('The symbolic engine is starting; SymPy\'s evidence follows.') };
    if (!engine) return d;
    return { ...d, sympy: await this.sympyDetails.get(engine, cq, sources, 0) };
  }

  private detail(responseId: number): ApiResponse<'response.get'> {
    const d = this.ws.getResponseDetail(responseId) ?? notFound(`no response with id ${responseId}`);
    const exam = this.ws.getExam(d.examId)!;
    const q = exam.questions.find((x) => x.id === d.questionId)!;
    const x = d.extractionDetail;
    const key = `${d.examId}/${d.studentId}/${d.questionId}`;
    const audit = this.ws
      .auditLog({ keyPrefix: key })
      .filter((a) => a.entityKey === key || a.entityKey.startsWith(`${key}/`))
      .map((a) => ({
        at: a.at,
        what: AUDIT_WORDS[a.action] ?? a.action,
        old: a.old === null ? null : brief(a.old),
        new: a.new === null ? null : brief(a.new),
        comment: (a.new as { comment?: string } | null)?.comment ?? null,
      }));
    const items = q.scheme.map((s) => {
      const it = d.items.find((i) => i.itemId === s.id);
      const ov = d.overridesList.find((o) => o.itemId === s.id);
      return {
        itemId: s.id,
        description: s.description,
        available: s.marks,
        awarded: it?.awarded ?? null,
        outcome: it?.outcome ?? (s.manual ? 'manual' : 'undecided'),
        match: it?.match ?? (s.manual ? 'manual' : (s.match ?? '')),
        evidence: it?.evidence ?? [],
        ...(it?.note ? { note: it.note } : !it ? { note: 'not marked yet' } : {}),
        ...(ov ? { override: { marks: ov.awarded, comment: ov.comment, at: ov.createdAt } } : {}),
        final: ov ? ov.awarded : (it?.awarded ?? null),
      } as ApiResponse<'response.get'>['items'][number];
    });
    const vars = q.variables.map((v) => v.name);
    const current = x ? this.reading(x, vars) : null;
    // Each reader's list, from the model record stored with the extraction it produced.
    const rec = this.ws.getModelRecord(responseId);
    const stored = rec && rec.current ? rec.record.readings : [];
    const others = stored.map((r) =>
      this.reading({ source: (r.reader.startsWith('model:') || r.reader === 'embedded' ? r.reader : `model:${r.reader}`) as Extraction['source'], status: 'read', flags: [], unread: [], notes: [], equations: r.equations.map((source) => ({ source })) }, vars),
    );
    return {
      responseId: String(responseId),
      studentId: d.studentId,
      questionId: d.questionId,
      text: d.text ?? '',
      variables: q.variables.map((v) => v.name),
      target: q.target ?? null,
      current,
      readings: others.length > 1 ? others : current ? [current] : [],
      items,
      inconsistent: (d.marks?.inconsistent ?? []).map((i) => ({ student: i.student, ...(i.note ? { note: i.note } : {}) })),
      total: effectiveTotal(d),
      available: q.scheme.reduce((s, i) => s + i.marks, 0),
      chips: this.chips(d, exam),
      audit,
      heldBack: this.heldBack(responseId, key, x, q.variables.map((v) => v.name)),
    };
  }

  /**
   * The equations a model proposed that grounding held back as possibly invented (symbols or
   * numbers not in the text), with who proposed each and why: from the model's record while its
   * reading is current, or was since changed only by the instructor's corrections (so accepting
   * one of two keeps the other listed). Those already in the current list are left out.
   */
  private heldBack(responseId: number, key: string, current: Extraction | null, variables: string[]): ApiResponse<'response.get'>['heldBack'] {
    const rec = this.ws.getModelRecord(responseId);
    const ungrounded = rec?.record.ungrounded ?? [];
    if (!rec || !current || ungrounded.length === 0) return [];
    if (!rec.current && !(current.source === 'manual' && this.onlyCorrectedSince(key))) return [];
    const canon = (s: string) => {
      const p = parseEquation(s, { variables });
      return p.ok ? equationToSympy(p.value) : s;
    };
    const have = new Set(current.equations.map((e) => canon(e.source)));
    const readerName = (r: string) => r.replace(/^model:/, '');
    const seen = new Set<string>();
    return ungrounded.flatMap((u) => {
      const source = canon(u.source);
      if (have.has(source) || seen.has(source)) return [];
      seen.add(source);
      const p = parseEquation(u.source, { variables });
      const by = rec.record.readings.filter((r) => r.equations.some((e) => canon(e) === source)).map((r) => readerName(r.reader));
      return [
        {
          source,
          latex: p.ok ? equationToLatex(p.value) : `\\text{${u.source.replace(/[\\{}$&#^_%~]/g, '')}}`,
          proposedBy: by.length ? [...new Set(by)] : rec.models.map((m) => m.name),
          reasons: u.reasons,
        },
      ];
    });
  }

  /**
   * Whether the response's reading has been changed only by the instructor's corrections since the
   * last reading that came with a model's record (no new text, no new reading or imported list).
   */
  private onlyCorrectedSince(key: string): boolean {
    let fromModel = false;
    for (const a of this.ws.auditLog({ keyPrefix: key })) {
      if (a.entityKey !== key) continue;
      if (a.action === 'response.update') fromModel = false;
      else if (a.action === 'extraction.save') {
        const n = (a.new ?? {}) as { source?: string; models?: unknown };
        if (Array.isArray(n.models)) fromModel = true;
        else if (n.source !== 'manual') fromModel = false;
      }
    }
    return fromModel;
  }

  /** Replace a response's equations with the instructor's list and re-mark it at once. */
  private async correct(responseId: number, sources: string[], comment?: string): Promise<void> {
    const d = this.ws.getResponseDetail(responseId) ?? notFound(`no response with id ${responseId}`);
    const lx = this.loaded(d.examId);
    const cq = lx.questions.get(d.questionId)!;
    const eqs: Equation[] = [];
    const problems: string[] = [];
    sources.forEach((s, i) => {
      const p = parseEquation(s, { variables: cq.variables });
      if (p.ok) eqs.push(p.value);
      else problems.push(`equation ${i + 1} ${JSON.stringify(s)}: ${formatErrors(p.errors)}`);
    });
    if (problems.length) throw new ApiFailure({ code: 'invalid-request', message: problems.join('; ') });
    const old = d.extractionDetail;
    const oldSpans = new Map((old?.equations ?? []).map((e) => [e.source, e.span]));
    const canon = eqs.map(equationToSympy);
    // Equations held back as possibly invented that the instructor now accepts: said so in the
    // reading's notes and in the audited comment.
    const key = `${d.examId}/${d.studentId}/${d.questionId}`;
    const accepted = this.heldBack(responseId, key, old, cq.variables).filter((h) => canon.includes(h.source));
    const acceptedText = accepted.map((h) => `${h.source} (proposed by ${h.proposedBy.join(' and ')}; ${h.reasons.join('; ')})`);
    const x: Extraction = {
      equations: canon.map((source) => (oldSpans.get(source) ? { source, span: oldSpans.get(source) } : { source })),
      status: canon.length ? 'read' : 'blank',
      source: 'manual',
      flags: [],
      unread: [],
      notes: [
        `corrected by the instructor${old ? ` (first read by ${old.source === 'given' ? 'an imported list' : old.source})` : ''}`,
        ...acceptedText.map((t) => `accepted by the instructor although possibly invented: ${t}`),
      ],
    };
    const engine = await this.engine();
    const xid = this.ws.saveExtraction(responseId, x, 'manual');
    const said = [
      ...(acceptedText.length ? [`Accepted ${accepted.length === 1 ? 'a possibly-invented equation' : 'possibly-invented equations'}: ${acceptedText.join('; ')}.`] : []),
      ...(comment?.trim() ? [comment.trim()] : []),
    ];
    if (said.length) this.ws.addComment(responseId, said.join(' '));
    const marks = await markEquations(engine, cq, eqs);
    this.ws.saveMarks(responseId, xid, marks);
  }

  private override(responseId: number, itemId: string, marks: number | null, comment: string): void {
    if (marks === null) this.ws.clearOverride(responseId, itemId, comment);
    else this.ws.setOverride(responseId, itemId, marks, comment);
  }

  // ---------- grading job ----------

  private progress(): GradeProgress {
    const j = this.job;
    if (!j) return { state: 'idle', examId: null, technique: null, total: 0, done: 0, read: 0, phase: null, failed: 0, needsReview: 0, startedAt: null, elapsedSeconds: 0, etaSeconds: null, tokens: 0, energyJoules: 0, message: null };
    const rows = this.ws.listResponses(j.examId);
    const jobExam = this.ws.getExam(j.examId);
    const done = rows.filter((r) => r.marks && r.extraction).length;
    const read = rows.filter((r) => r.extraction).length;
    const running = j.state === 'running' || j.state === 'pausing';
    const stretch = running ? (Date.now() - j.stretchStart) / 1000 : 0;
    const elapsed = j.runSeconds + stretch;
    // Time left: the current phase at its measured rate, plus (while reading) the marking still
    // to come at the rate marking last ran in this session.
    const inPhase = (Date.now() - j.phaseStart) / 1000;
    const phaseLeft = Math.max(0, j.phaseTotal - j.phaseDone);
    const markLater = j.phase === 'reading' ? (rows.length - done) * this.markSeconds : 0;
    const eta = !running
      ? rows.length === done
        ? 0
        : null
      : j.phase && j.phaseDone > 0 && inPhase > 0.5
        ? (inPhase / j.phaseDone) * phaseLeft + markLater
        : null;
    return {
      state: j.state,
      examId: j.examId,
      technique: j.technique,
      total: rows.length,
      done,
      read,
      phase: running ? j.phase : null,
      failed: j.failed,
      needsReview: jobExam ? reviewCounts(rows, jobExam).needsReview : 0,
      startedAt: new Date(j.startedAt).toISOString(),
      elapsedSeconds: Math.round(elapsed * 10) / 10,
      etaSeconds: eta === null ? null : Math.round(eta),
      tokens: j.tokens,
      energyJoules: j.energyJoules,
      message: j.message,
    };
  }

  private async runStretch(j: Job): Promise<void> {
    const make = (await this.techniques(true))[j.technique];
    if (!make) throw new ApiFailure({ code: 'unavailable', message: `reading technique '${j.technique}' is not available in this build` });
    const technique = await make();
    const engine = await this.engine();
    const lx = this.loaded(j.examId);
    j.state = 'running';
    j.stretchStart = Date.now();
    j.phase = null;
    j.phaseDone = 0;
    j.phaseTotal = 0;
    j.phaseStart = Date.now();
    j.finishedAtStart = this.ws.listResponses(j.examId).filter((r) => r.marks && r.extraction).length;
    j.run = (async () => {
      try {
        await grade({
          workspace: this.ws,
          exam: lx,
          engine,
          input: { kind: 'none' },
          technique,
          signal: j.controller.signal,
          onProgress: (p) => {
            const phase = p.phase === 'extract' ? 'reading' : p.phase === 'mark' ? 'marking' : null;
            if (!phase) return;
            if (phase !== j.phase) {
              j.phase = phase;
              j.phaseStart = Date.now();
            }
            j.phaseDone = p.done;
            j.phaseTotal = p.total;
            if (phase === 'marking' && p.done > 0 && p.done === p.total) this.markSeconds = (Date.now() - j.phaseStart) / 1000 / p.done;
          },
        });
        j.state = j.controller.signal.aborted ? 'paused' : 'done';
        j.message = j.state === 'done' ? null : 'Paused. Work done so far is saved; resume to go on.';
      } catch (e) {
        j.state = 'failed';
        j.message = (e as Error).message;
      } finally {
        j.runSeconds += (Date.now() - j.stretchStart) / 1000;
        if (technique.dispose) await technique.dispose().catch(() => {});
      }
    })();
  }

  /** Re-mark every response whose marks were dropped (the scheme changed): no reading, marking only. Returns how many. */
  private startRemark(examId: string): number {
    const n = this.ws.pending(examId, 'mark').length;
    if (!n) return 0;
    const j = newJob(examId, REMARK, 'marking', n);
    this.job = j;
    this.remarkStretch(j);
    return n;
  }

  private remarkStretch(j: Job): void {
    const todo = this.ws.pending(j.examId, 'mark');
    j.state = 'running';
    j.stretchStart = j.phaseStart = Date.now();
    j.phase = 'marking';
    j.phaseDone = 0;
    j.phaseTotal = todo.length;
    j.run = (async () => {
      try {
        const engine = await this.engine();
        const lx = this.loaded(j.examId);
        for (const r of todo) {
          if (j.controller.signal.aborted) break;
          const cq = lx.questions.get(r.questionId);
          const x = this.ws.getExtraction(r.id);
          if (!cq || !x) continue;
          const eqs = x.equations.flatMap((e) => {
            const p = parseEquation(e.source, { variables: cq.variables });
            return p.ok ? [p.value] : [];
          });
          this.ws.saveMarks(r.id, x.id, await markEquations(engine, cq, eqs));
          j.phaseDone++;
        }
        j.state = j.controller.signal.aborted ? 'paused' : 'done';
        j.message = j.state === 'done' ? 'Re-marked with the changed scheme.' : 'Paused. Work done so far is saved; resume to go on.';
      } catch (e) {
        j.state = 'failed';
        j.message = (e as Error).message;
      } finally {
        j.runSeconds += (Date.now() - j.stretchStart) / 1000;
      }
    })();
  }

  // ---------- gold and accuracy ----------

  private async accuracy(examId: string): Promise<{ compared: number; equivalent: number } | null> {
    const g = this.ws.getGold(examId);
    if (g.size === 0) return null;
    const engine = await this.engine();
    const exam = this.ws.getExam(examId)!;
    let compared = 0;
    let equivalent = 0;
    for (const r of this.ws.listResponses(examId)) {
      const gs = g.get(goldKey(r.studentId, r.questionId));
      if (!gs || !r.extraction) continue;
      const q = exam.questions.find((x) => x.id === r.questionId)!;
      const variables = q.variables.map((v) => v.name);
      const parse = (l: string[]) => l.map((s) => parseEquation(s, { variables })).flatMap((p) => (p.ok ? [p.value] : []));
      const cmp = await engine.compareLists(parse(r.extraction.equations), parse(gs), realDomain(q));
      compared++;
      if (cmp.equivalent) equivalent++;
    }
    return { compared, equivalent };
  }

  // ---------- the handlers ----------

  handlers(): ApiHandlers {
    return {
      'app.info': async () => {
        const techs = await this.techniques();
        return {
          version: this.opts.version ?? '0.1.0',
          mode: this.opts.mode,
          workspace: this.opts.workspacePath,
          features: {
            workspace: { available: true, note: `SQLite workspace at ${this.opts.workspacePath}` },
            'embedded extractor': techs.embedded
              ? { available: true, note: 'reads responses inside Equimark, no model needed' }
              : { available: false, note: 'not in this build: only responses written entirely as equations are read (the plain reader)' },
            'Ollama models': techs.hybrid ? await this.ollamaFeature() : { available: false, note: 'the model pipeline is not in this build' },
            'symbolic engine': { available: true, note: 'Z3 with a numeric fast path decides every mark' },
            'SymPy checker': await this.sympyFeature(),
          },
        };
      },

      'exam.list': async () =>
        this.ws.listExams().map((e) => {
          const exam = this.ws.getExam(e.id)!;
          const graded = (this.ws.db.prepare('SELECT count(*) AS n FROM mark_results m JOIN responses r ON r.id = m.response_id WHERE r.exam_id = ?').get(e.id) as { n: number }).n;
          return { id: e.id, title: e.title, questions: exam.questions.length, responses: e.responses, graded };
        }),

      'exam.get': async ({ examId }) => this.ws.getExam(examId) ?? notFound(`no exam '${examId}'`),

      'exam.import': async ({ json }) => {
        try {
          const lx = parseExamJson(json);
          const { examId } = this.ws.importExam(lx.exam);
          // Importing a changed version of an exam drops its marks: re-mark at once unless grading runs (it marks them).
          if (!this.job || (this.job.state !== 'running' && this.job.state !== 'pausing')) this.startRemark(examId);
          return { ok: true as const, examId };
        } catch (e) {
          if (e instanceof ExamError) return { ok: false as const, issues: e.problems.map((p) => ({ path: p.path || '(file)', message: p.message })) };
          return { ok: false as const, issues: [{ path: '(exam)', message: (e as Error).message }] };
        }
      },

      'exam.save': async ({ exam }) => {
        if (this.job && (this.job.state === 'running' || this.job.state === 'pausing')) throw new ApiFailure({ code: 'conflict', message: 'grading is running: pause it, or wait until it is done, then save the exam' });
        try {
          const lx = validateExam(exam);
          const { examId } = this.ws.importExam(lx.exam);
          // A changed scheme or changed variables drop the marks: re-mark at once (in the background; progress in Grade).
          return { ok: true as const, examId, remarking: this.startRemark(examId) };
        } catch (e) {
          if (e instanceof ExamError) return { ok: false as const, issues: e.problems.map((p) => ({ path: p.path || '(exam)', message: p.message })) };
          return { ok: false as const, issues: [{ path: '(exam)', message: (e as Error).message }] };
        }
      },

      'exam.loadDemo': async () => {
        const dir = join(this.opts.resourcesDir, 'demo');
        if (!existsSync(join(dir, 'exam.json'))) unavailable(`the demo exam is missing from ${dir}`);
        const lx = parseExamJson(readFileSync(join(dir, 'exam.json'), 'utf8'), 'demo/exam.json');
        this.ws.importExam(lx.exam);
        let responses = 0;
        if (existsSync(join(dir, 'responses.csv'))) {
          const rows = parseResponsesCsv(readFileSync(join(dir, 'responses.csv')), [...lx.questions.keys()], 'demo/responses.csv');
          this.ws.importResponses(lx.exam.id, rows);
          responses = rows.length;
        }
        return { examId: lx.exam.id, responses };
      },

      'responses.import': async ({ examId, csv, fileName }) => {
        const exam = this.ws.getExam(examId) ?? notFound(`no exam '${examId}'`);
        try {
          const rows = parseResponsesCsv(csv, exam.questions.map((q) => q.id), fileName);
          const r = this.ws.importResponses(examId, rows);
          return { imported: r.inserted + r.updated + r.unchanged, rejected: [], error: null };
        } catch (e) {
          if (e instanceof ResponsesCsvError) {
            // The file is rejected whole (nothing stored): list every problem with its line.
            return {
              imported: 0,
              rejected: e.problems.map((p) => ({ line: p.line, studentId: p.studentId ?? null, questionId: p.questionId ?? null, reason: p.message })),
              error: `${e.problems.length} problem${e.problems.length === 1 ? '' : 's'} found; fix ${e.problems.length === 1 ? 'it' : 'them'} in the file and import it again.`,
            };
          }
          if (e instanceof CsvFileError) return { imported: 0, rejected: [], error: `${e.line ? `line ${e.line}: ` : ''}${e.reason}` };
          throw e;
        }
      },

      'equations.import': async ({ examId, csv }) => {
        const exam = this.ws.getExam(examId) ?? notFound(`no exam '${examId}'`);
        try {
          const { rows, problems } = parseEquationsCsv(csv, (qid) => exam.questions.find((q) => q.id === qid)?.variables.map((v) => v.name));
          const known = rows.filter((r) => exam.questions.some((q) => q.id === r.questionId));
          this.ws.importGiven(examId, known.map((row) => ({ studentId: row.studentId, questionId: row.questionId, extraction: givenExtraction(row) })));
          // Every known row is stored (or already was, unchanged): count them all, first reading or not.
          return { imported: known.length, rejected: problems.map((p) => ({ line: p.line, reason: p.message })), error: null };
        } catch (e) {
          if (e instanceof CsvFileError) return { imported: 0, rejected: [], error: `${e.line ? `line ${e.line}: ` : ''}${e.reason}` };
          throw e;
        }
      },

      'gold.import': async ({ examId, csv }) => {
        const exam = this.ws.getExam(examId) ?? notFound(`no exam '${examId}'`);
        try {
          const { rows } = parseEquationsCsv(csv, (qid) => exam.questions.find((q) => q.id === qid)?.variables.map((v) => v.name));
          const lists: { studentId: string; questionId: string; equations: string[] }[] = [];
          const rejected: { line: number | null; reason: string }[] = [];
          for (const r of rows) {
            if (r.error) rejected.push({ line: r.line, reason: r.error });
            else lists.push({ studentId: r.studentId, questionId: r.questionId, equations: r.sources });
          }
          // Kept in the workspace, so the accuracy figure survives a restart.
          return { imported: this.ws.setGold(examId, lists), rejected, error: null };
        } catch (e) {
          if (e instanceof CsvFileError) return { imported: 0, rejected: [], error: `${e.line ? `line ${e.line}: ` : ''}${e.reason}` };
          throw e;
        }
      },

      'grade.options': async () => {
        const techs = await this.techniques();
        const { reachable, models, note } = await this.ollamaState();
        const ready = reachable && models.length > 0;
        const why = !reachable ? `Ollama is not running at ${this.settings.ollamaUrl}.` : models.length === 0 ? 'Ollama has no models installed.' : null;
        const techniques = TECHNIQUE_ORDER.filter((id) => techs[id]).map((id) => {
          const info = TECHNIQUE_INFO[id];
          const available = info.minModels === 0 || (ready && models.length >= info.minModels);
          // Without Ollama the banner says why once; here only a missing second model is worth saying.
          const note = info.minModels === 0 || available || why ? info.note : `${info.note} Needs ${info.minModels} installed models.`;
          return { id, label: info.label, available, note, minModels: info.minModels, maxModels: info.maxModels };
        });
        // Hybrid with the preferred model (Settings) or the first installed one; else the embedded extractor.
        const preferred = this.settings.models.filter((m) => models.some((x) => x.name === m));
        const recommended = ready && techs.hybrid ? { technique: 'hybrid' as const, models: [preferred[0] ?? models[0].name] } : { technique: techs.embedded ? ('embedded' as const) : ('plain' as const), models: [] };
        const embeddedNote = TECHNIQUE_INFO.embedded.note;
        return {
          embedded: { available: Boolean(techs.embedded), note: embeddedNote },
          ollama: { reachable, url: this.settings.ollamaUrl, models, note },
          techniques,
          recommended,
        };
      },

      'ollama.pull': async ({ model }) => this.downloads.start(model, this.settings.ollamaUrl),
      'ollama.pullStatus': async () => this.downloads.progress(),

      'grade.start': async ({ examId, technique, models }) => {
        if (this.job && (this.job.state === 'running' || this.job.state === 'pausing')) throw new ApiFailure({ code: 'conflict', message: 'grading is already running' });
        const info = TECHNIQUE_INFO[technique];
        if (models.length < info.minModels) throw new ApiFailure({ code: 'invalid-request', message: info.minModels === 2 ? `'${technique}' needs two models: choose two` : `'${technique}' needs a model: choose one` });
        if (models.length > info.maxModels && info.maxModels === 0) throw new ApiFailure({ code: 'invalid-request', message: `'${technique}' uses no model` });
        this.models = models.slice(0, info.maxModels);
        this.loaded(examId);
        const techs = await this.techniques();
        const name = technique;
        if (!techs[name]) unavailable(`'${technique}' is not available in this build`);
        const j = newJob(examId, name, null, 0);
        this.job = j;
        await this.runStretch(j);
        return this.progress();
      },

      'grade.pause': async () => {
        const j = this.job;
        if (!j || j.state !== 'running') throw new ApiFailure({ code: 'conflict', message: 'nothing is being graded' });
        j.state = 'pausing';
        j.controller.abort();
        return this.progress();
      },

      'grade.resume': async () => {
        const j = this.job;
        if (!j || j.state !== 'paused') throw new ApiFailure({ code: 'conflict', message: 'grading is not paused' });
        j.controller = new AbortController();
        j.message = null;
        if (j.technique === REMARK) this.remarkStretch(j);
        else await this.runStretch(j);
        return this.progress();
      },

      'grade.status': async () => this.progress(),

      'review.list': async ({ examId }) => {
        const exam = this.ws.getExam(examId) ?? notFound(`no exam '${examId}'`);
        const texts = this.texts(examId);
        const avail = new Map(exam.questions.map((q) => [q.id, q.scheme.reduce((s, i) => s + i.marks, 0)]));
        return {
          rows: this.ws.listResponses(examId).map((r) => this.row(r, exam, texts.get(r.id) ?? null, avail.get(r.questionId) ?? 0)),
          items: Object.fromEntries(exam.questions.map((q) => [q.id, q.scheme.map((s) => ({ id: s.id, marks: s.marks }))])),
        };
      },

      'response.get': async ({ responseId }) => this.withSympy(this.detail(this.responseId(responseId))),

      'response.setEquations': async ({ responseId, equations, comment }) => {
        const id = this.responseId(responseId);
        await this.correct(id, equations, comment);
        return this.withSympy(this.detail(id));
      },

      'response.override': async ({ responseId, itemId, marks, comment }) => {
        const id = this.responseId(responseId);
        try {
          this.override(id, itemId, marks, comment);
        } catch (e) {
          throw new ApiFailure({ code: 'invalid-request', message: (e as Error).message });
        }
        return this.withSympy(this.detail(id));
      },

      'groups.list': async ({ examId, questionId }) => {
        const exam = this.ws.getExam(examId) ?? notFound(`no exam '${examId}'`);
        const q = exam.questions.find((x) => x.id === questionId) ?? notFound(`no question '${questionId}'`);
        const rows = this.ws.listResponses(examId, { questionId }).filter((r) => r.extraction && r.marks);
        // Same canonical list first (cheap), then merge lists the engine proves equivalent.
        const buckets = new Map<string, ResponseSummary[]>();
        for (const r of rows) {
          const key = JSON.stringify([...new Set(r.extraction!.equations)].sort());
          buckets.set(key, [...(buckets.get(key) ?? []), r]);
        }
        const keys = [...buckets.keys()].sort((a, b) => buckets.get(b)!.length - buckets.get(a)!.length);
        const engine = await this.engine();
        const domain = questionDomain(q);
        const variables = q.variables.map((v) => v.name);
        const parse = (k: string) => (JSON.parse(k) as string[]).map((s) => parseEquation(s, { variables })).flatMap((p) => (p.ok ? [p.value] : []));
        const groups: { key: string; members: ResponseSummary[] }[] = [];
        for (const k of keys) {
          const mine = parse(k);
          let home: (typeof groups)[number] | undefined;
          if (groups.length < 400 && mine.length) {
            for (const g of groups) {
              const theirs = parse(g.key);
              if (theirs.length && theirs.length <= 12 && mine.length <= 12 && (await engine.compareLists(mine, theirs, domain)).equivalent) {
                home = g;
                break;
              }
            }
          }
          if (home) home.members.push(...buckets.get(k)!);
          else groups.push({ key: k, members: [...buckets.get(k)!] });
        }
        return groups
          .sort((a, b) => b.members.length - a.members.length)
          .map((g) => {
            const totals = new Set(g.members.map((m) => effectiveTotal(m)));
            return {
              key: g.key,
              equations: (JSON.parse(g.key) as string[]).map((s) => {
                const p = parseEquation(s, { variables });
                return { source: s, latex: p.ok ? equationToLatex(p.value) : s };
              }),
              responseIds: g.members.map((m) => String(m.id)),
              total: totals.size === 1 ? [...totals][0] : null,
            };
          });
      },

      'groups.apply': async ({ responseIds, action }) => {
        let changed = 0;
        for (const rid of responseIds) {
          const id = this.responseId(rid);
          if (action.kind === 'equations') await this.correct(id, action.equations, action.comment);
          else {
            try {
              this.override(id, action.itemId, action.marks, action.comment);
            } catch (e) {
              throw new ApiFailure({ code: 'invalid-request', message: `response ${rid}: ${(e as Error).message} (${changed} changed before this one)` });
            }
          }
          changed++;
        }
        return { changed };
      },

      'export.marks': async ({ examId }) => {
        const exam = this.ws.getExam(examId) ?? notFound(`no exam '${examId}'`);
        return { fileName: `${examId}-marks.csv`, csv: marksCsv(this.ws, exam) };
      },

      'export.studentMarks': async ({ examId }) => {
        const exam = this.ws.getExam(examId) ?? notFound(`no exam '${examId}'`);
        return { fileName: `${examId}-marks-by-student.csv`, csv: studentMarksCsv(this.ws, exam) };
      },

      'export.report': async ({ responseId }) => {
        const d = this.detail(this.responseId(responseId));
        return { fileName: `report-${d.studentId}-${d.questionId}.txt`, text: report(d, this.ws.getExam(this.ws.getResponseDetail(Number(responseId))!.examId)!) };
      },

      'summary.get': async ({ examId }) => {
        const exam = this.ws.getExam(examId) ?? notFound(`no exam '${examId}'`);
        const rows = this.ws.listResponses(examId);
        const chips: Record<string, number> = {};
        const distribution = exam.questions.map((q) => {
          const available = q.scheme.reduce((s, i) => s + i.marks, 0);
          const counts = new Array(Math.floor(available) + 1).fill(0) as number[];
          for (const r of rows) {
            if (r.questionId !== q.id) continue;
            const t = effectiveTotal(r);
            if (t !== null) counts[Math.min(counts.length - 1, Math.floor(t))]++;
          }
          return { questionId: q.id, available, counts };
        });
        for (const r of rows) for (const c of this.chips(r, exam)) chips[c] = (chips[c] ?? 0) + 1;
        return {
          responses: rows.length,
          graded: rows.filter((r) => r.marks).length,
          needsReview: reviewCounts(rows, exam).needsReview,
          overridden: rows.filter((r) => r.overrides > 0).length,
          available: exam.questions.reduce((s, q) => s + q.scheme.reduce((t, i) => t + i.marks, 0), 0),
          distribution,
          chips,
          accuracy: await this.accuracy(examId),
        };
      },

      'settings.get': async () => this.settings,
      'settings.set': async (s) => {
        if (s.gpu?.trim() && gpuPower(s.gpu) == null) {
          throw new ApiFailure({ code: 'invalid-request', message: `unknown GPU '${s.gpu.trim()}': give its board power in watts (e.g. '320W') or one of: ${Object.keys(GPU_BOARD_POWER_W).join(', ')}` });
        }
        const pythonChanged = s.pythonPath.trim() !== this.settings.pythonPath.trim();
        this.settings = s;
        // A new Python path takes effect at once, grading or not: the engine swaps its SymPy worker
        // and decides its cached sampling verdicts again; the SymPy evidence is recomputed.
        if (pythonChanged) {
          this.engineNotice = null;
          this.sympyDetails.clear();
          const e = this.engineP ? await this.engineP.catch(() => null) : null;
          if (e) {
            await e.setSympy(this.sympyOptions());
            // Try the new path now, so Settings can say at once whether it works (a few hundred ms;
            // bounded, and a failure is what the status then reports).
            if (e.sympy) await Promise.race([e.sympy.start().catch(() => null), new Promise((ok) => setTimeout(ok, 8000))]);
          }
        }
        if (this.settingsPath) writeFileSync(this.settingsPath, JSON.stringify(s, null, 2));
        return s;
      },
    };
  }
}

/** A model download in the background (ollama.pull). */
