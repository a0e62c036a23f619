// The help text of `equimark help` (also printed after an argument error).
export const USAGE = `Usage:
  equimark grade --exam E.json (--responses R.csv | --equations L.csv) --out DIR [--workspace W.sqlite]
                 [--technique T] [--model M] [--model2 M2] [--ollama-url URL ...] [--model-timeout S] [--gpu NAME]
                 [--cache FILE|none] [--parallel N]
      Grade a class: writes DIR/marks.csv, DIR/equations.csv and DIR/gradebook.csv (Canvas and
      Moodle import it as it is). The workspace (default
      DIR/workspace.sqlite) keeps every step; re-running finishes an interrupted run.
  equimark grade --dry-run --exam E.json (--workspace W.sqlite | --out DIR) [--diff FILE.csv]
      What grading the edited exam E.json against a graded workspace would change, writing
      nothing to it: the responses of the questions whose marking changes are marked again on
      their stored readings. Prints per scheme item how many responses gain, lose or keep it,
      the students whose totals move, and the overrides the change would make the automatic
      mark disagree or agree with (an override stays in force). --diff writes every change:
      student_id,question_id,item_id,before,after,outcome_before,outcome_after,override.
  equimark check --exam E.json --question ID "EQ1" "EQ2" [--json]
      Whether EQ1 entails EQ2 and EQ2 entails EQ1 under the question's assumptions, with evidence.
  equimark eval --exam E.json --responses R.csv --gold G.csv [--technique T[,T2,...]] [model options as for grade] [--json]
      Against gold lists: list-equivalence accuracy, coverage (non-blank responses read with
      confidence) and precision (of those, equivalent to gold) overall and per tag, agreement of
      marks, and Table I (per technique: time, tokens, correct answers). Several techniques
      (--technique embedded,hybrid) are compared in one run.
  equimark models [--ollama-url URL] [--json]
      The models installed in Ollama, with their digests (a batch records the digest it was read with).
  equimark pull NAME [--ollama-url URL]
      Download a model into Ollama, showing progress.
  equimark help

Techniques (--technique):
  embedded    the embedded extractor alone: no model is contacted; what it can't read with
              confidence stays 'partial' or 'abstained' and earns marks only from what it read
  plain       only responses written entirely as equations
  hybrid      the embedded extractor first, the model (--model; with --model2, two models that
              must agree) reads what it could not read with confidence
  direct, llm-modulo, per-line, consensus
              the model reads every response (consensus: --model and --model2 must agree)
  Default: hybrid when a model is configured (--model or EQUIMARK_MODEL) and Ollama answers;
  otherwise embedded (stderr says why). A model never decides a mark: it only reads equations.

Model options:
  --model M, --model2 M2   installed Ollama models (default: $EQUIMARK_MODEL, $EQUIMARK_MODEL2)
  --ollama-url URL         Ollama server (default: $OLLAMA_HOST read as Ollama does, else
                           http://127.0.0.1:11434); a server not on this machine gets a warning:
                           student responses would leave the machine. Give it several times to
                           spread the responses over several servers (each with --parallel
                           requests in flight); the model must have the same digest on each
  --model-timeout S        seconds one model request may take (default 120); a time-out is not
                           retried, so a stalled server costs at most S per response
  --gpu NAME               GPU for the energy estimate ("RTX 4090", "h100", or "300W")
  --cache FILE|none        reply cache: a re-run replays the model's replies at no cost
                           (grade default: beside the workspace, W.ollama-replies.jsonl;
                           eval default: none)
  --parallel N             model requests in flight at once, per server (default 1)
  Possibly invented equations (not traceable to the student's text) earn no marks: they are held
  back (flag 'invented', status needs-review) until the instructor accepts them. Per response,
  the models (name and digest), prompts, replies, tokens and time are kept in the workspace.

Exit status: 0 done; 1 bad input or failure; 2 bad arguments; 3 some responses wait for the
  model (Ollama unreachable, HTTP errors, replies that stayed malformed past the retries, the
  model gone, a time-out): their embedded reading is kept and graded meanwhile, they are listed
  on stderr with the fault, and running the same command again once it is mended reads only those;
  4 some responses hit an engine error (grade): they are listed on stderr, the rest is graded
  and written; the same command run again retries them.

Environment: OLLAMA_HOST, EQUIMARK_MODEL, EQUIMARK_MODEL2; EQUIMARK_DEBUG=1 prints the stack
  trace of an unexpected error.
`;
