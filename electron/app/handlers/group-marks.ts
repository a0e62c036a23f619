// A manual mark or a comment for a whole answer group, previewed member by member before anything
// is stored; each member that changes gets its own audited override or comment. The rule for
// reasons (required only to override an automatic item) is the store's, applied to every member.
import type { ApiHandlers, ApiResponse } from '../../../shared/api.ts';
import { schemeOf } from '../../engine/review/state.ts';
import { invalid, notFound, type AppContext } from '../context.ts';
import { override } from '../detail.ts';

type Handlers = Pick<ApiHandlers, 'groups.mark'>;
type Member = ApiResponse<'groups.mark'>['members'][number];

const excerpt = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 120);

export function groupMarkHandlers(ctx: AppContext): Handlers {
  return {
    'groups.mark': async ({ responseIds, itemId, marks, comment, preview }) => {
      const note = comment?.trim() ?? '';
      const marking = itemId !== undefined && marks !== undefined;
      if (!marking && !note) invalid('give a mark for an item, or a comment, to apply to the group');
      if (itemId !== undefined && marks === undefined) invalid(`give the mark for item '${itemId}' (or null to clear it)`);
      let manual: boolean | null = null;
      const members: Member[] = [];
      for (const rid of responseIds) {
        const id = ctx.responseId(rid);
        const d = ctx.ws.getResponseDetail(id) ?? notFound(`no response with id ${rid}`);
        const exam = ctx.exam(d.examId);
        let old: number | null = null;
        let next: number | null = null;
        let changes = !!note;
        if (marking) {
          const item = schemeOf(exam, d.questionId).find((s) => s.id === itemId);
          if (!item) invalid(`student ${d.studentId}'s question ${d.questionId} has no scheme item '${itemId}'`);
          if (marks !== null && marks! > item!.marks) invalid(`item '${itemId}' is worth ${item!.marks}; can't award ${marks}`);
          if (manual === null) manual = !!item!.manual;
          else if (manual !== !!item!.manual) invalid(`item '${itemId}' is manual in one question and automatic in another: mark one question at a time`);
          if (!item!.manual && !note) invalid(`a comment is required to override the automatic mark of item '${itemId}'`);
          old = d.effective[itemId!] ?? null;
          const auto = d.items.find((i) => i.itemId === itemId)?.awarded ?? null;
          next = marks === null ? auto : marks!;
          changes = changes || old !== next || (marks === null && d.overridesList.some((o) => o.itemId === itemId));
        }
        members.push({ responseId: String(id), studentId: d.studentId, excerpt: excerpt(d.text), old, new: next, changes });
      }
      let applied = 0;
      if (!preview) {
        for (const m of members) {
          if (!m.changes) continue;
          const id = Number(m.responseId);
          const markChanges = marking && (m.old !== m.new || marks === null);
          if (markChanges) override(ctx, id, itemId!, marks!, note || undefined);
          // With a mark, the comment is the override's reason (in its audit entry); alone, it is a comment.
          else if (note) ctx.ws.addComment(id, note);
          applied++;
        }
      }
      return { itemId: itemId ?? null, manual, members, applied };
    },
  };
}
