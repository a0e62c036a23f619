// Equimark's window: a sidebar with the workflow's steps in order, and the current step.
import { useEffect, useRef, useState } from 'react';
import { api, isElectron } from './api.ts';
import { useLoad } from './util.ts';
import { ExamsView } from './views/Exams.tsx';
import { ResponsesView } from './views/Responses.tsx';
import { GradeView } from './views/Grade.tsx';
import { ReviewView } from './views/Review.tsx';
import { ResponseView } from './views/response/ResponseView.tsx';
import { GroupsView } from './views/Groups.tsx';
import { SummaryView } from './views/Summary.tsx';
import { ExportView } from './views/Export.tsx';
import { SettingsView } from './views/Settings.tsx';
import { RegradesView } from './views/Regrades.tsx';
import type { ReviewRow } from '../shared/api.ts';
import { NO_FILTERS, routeFromHash, routeToHash, type Nav, type Route, type View } from './nav.ts';
import { rowsAround } from './review-query.ts';

const STEPS: { view: View; label: string; hint: string; needsExam: boolean }[] = [
  { view: 'exams', label: '1 Exam', hint: 'questions and marking scheme', needsExam: false },
  { view: 'responses', label: '2 Responses', hint: 'import the class CSV', needsExam: true },
  { view: 'grade', label: '3 Grade', hint: 'read and mark', needsExam: true },
  { view: 'review', label: '4 Review', hint: 'check and correct', needsExam: true },
  { view: 'groups', label: '5 Answer groups', hint: 'same answers together', needsExam: true },
  { view: 'summary', label: '6 Summary', hint: 'distribution', needsExam: true },
  { view: 'regrades', label: '7 Regrade requests', hint: "students' requests", needsExam: true },
  { view: 'export', label: '8 Export', hint: 'marks and reports', needsExam: true },
];

export function App() {
  // The route lives in the address (nav.ts): Back/Forward and reload restore view, filters and focus.
  const [route, setRoute] = useState<Route>(() => routeFromHash(window.location.hash));
  const [queue, setQueue] = useState<ReviewRow[]>([]);
  const [exams, examsError, refreshExams] = useLoad(() => api['exam.list']({}), []);
  const [info] = useLoad(() => api['app.info']({}), []);
  const { view, examId, responseId } = route;

  // An exam just imported or loaded (the demo) becomes current at once, everywhere: the list
  // that still lacks it (it is being reloaded) must not send the choice back to the first exam.
  const chosen = useRef<string | null>(null);
  useEffect(() => {
    const onPop = () => setRoute(routeFromHash(window.location.hash));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  /** A new route: a new history entry (Back returns here), or the current one replaced (typing in a filter). */
  const current = useRef(route);
  current.current = route;
  const navigate = (change: Partial<Route>, replace = false) => {
    const next = { ...current.current, ...change };
    current.current = next; // two calls in one event both count
    const hash = routeToHash(next);
    if (hash !== window.location.hash) window.history[replace ? 'replaceState' : 'pushState'](null, '', hash);
    setRoute(next);
  };
  const setExamId = (id: string | null) =>
    navigate({ examId: id, review: NO_FILTERS, focus: null, ...(current.current.view === 'response' ? { view: 'review' as const, responseId: null } : {}) });

  useEffect(() => {
    if (!exams) return;
    if (chosen.current && exams.some((e) => e.id === chosen.current)) chosen.current = null;
    if (chosen.current) return;
    if (exams.length && (!examId || !exams.some((e) => e.id === examId))) navigate({ examId: exams[0].id }, true);
  }, [exams, examId]);
  const setExam = (id: string | null) => {
    chosen.current = id;
    setExamId(id);
  };

  // A response opened from the address (reload, Back): its queue is the list under the address's filters.
  useEffect(() => {
    if (view !== 'response' || !examId || !responseId || queue.some((r) => r.responseId === responseId)) return;
    let live = true;
    // Only the rows around it, filtered and sorted by the main process: the list may be long.
    rowsAround(examId, route.review, responseId).then(
      (rows) => live && setQueue(rows),
      () => {},
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view, examId, responseId]);

  const nav: Nav = {
    examId,
    setExam,
    go: (v) => navigate({ view: v, responseId: v === 'response' ? current.current.responseId : null }),
    openResponse(id, list) {
      if (list) setQueue(list);
      // Walking from one response to the next replaces the entry: Back returns to the list.
      navigate({ view: 'response', responseId: id, focus: id }, current.current.view === 'response');
    },
    queue,
    responseId,
    refreshExams,
    review: route.review,
    setReview: (f) => navigate({ review: { ...current.current.review, ...f } }, true),
    focus: route.focus,
    setFocus: (id) => navigate({ focus: id }, true),
    updateQueued: (row) => setQueue((q) => q.map((r) => (r.responseId === row.responseId ? { ...r, ...row } : r))),
  };
  const exam = exams?.find((e) => e.id === examId);

  return (
    <div className="app">
      <aside className="sidebar">
        <div className="brand">
          <span className="logo" aria-hidden>
            ≡
          </span>
          Equimark
        </div>
        {exams && exams.length > 0 && (
          <label className="exam-picker">
            <span className="muted small">Exam</span>
            <select value={examId ?? ''} onChange={(e) => setExam(e.target.value)} aria-label="current exam">
              {exams.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.title || e.id}
                </option>
              ))}
            </select>
          </label>
        )}
        <nav aria-label="workflow">
          {STEPS.map((s) => (
            <button
              key={s.view}
              className={`navitem ${view === s.view || (s.view === 'review' && view === 'response') ? 'active' : ''}`}
              disabled={s.needsExam && !examId}
              onClick={() => nav.go(s.view)}
              data-view={s.view}
            >
              <span className="navlabel">{s.label}</span>
              <span className="navhint">{s.hint}</span>
            </button>
          ))}
          <button className={`navitem settings ${view === 'settings' ? 'active' : ''}`} onClick={() => nav.go('settings')} data-view="settings">
            <span className="navlabel">Settings</span>
            <span className="navhint">models, Python</span>
          </button>
        </nav>
        <div className="sidebar-foot muted small">
          {isElectron ? 'Desktop app' : 'Browser mode (local only)'}
          {info ? ` · v${info.version}` : ''}
          {exam ? (
            <div>
              {exam.responses} responses · {exam.graded} graded
            </div>
          ) : null}
        </div>
      </aside>
      <main className="content">
        {examsError && <div className="banner error">Could not reach Equimark's engine: {examsError}</div>}
        {view === 'exams' && <ExamsView nav={nav} exams={exams ?? []} />}
        {view === 'responses' && examId && <ResponsesView nav={nav} examId={examId} />}
        {view === 'grade' && examId && <GradeView nav={nav} examId={examId} />}
        {view === 'review' && examId && <ReviewView nav={nav} examId={examId} />}
        {view === 'response' && responseId && <ResponseView nav={nav} responseId={responseId} />}
        {view === 'groups' && examId && <GroupsView nav={nav} examId={examId} />}
        {view === 'summary' && examId && <SummaryView nav={nav} examId={examId} />}
        {view === 'regrades' && examId && <RegradesView nav={nav} examId={examId} />}
        {view === 'export' && examId && <ExportView nav={nav} examId={examId} />}
        {view === 'settings' && <SettingsView info={info} />}
      </main>
    </div>
  );
}
