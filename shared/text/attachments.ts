// Attachments: whether a response mentions one (the study's most common failure was a model
// inventing equations for working that was only in an attached photo or scan, so any mention is
// flagged for the instructor), and the "Attachment: photo.jpg" lines the upload form adds. One
// definition, used by the embedded extractor and the model pipeline. Pure.

/** A line naming an attachment ("Attachment: working.jpg"): blanked and noted, never read. */
export const ATTACHMENT_LINE = /^[ \t]*attachments?[ \t]*:.*$/gim;

const ATTACHMENT_RE = new RegExp(
  [
    String.raw`\battachments?\b`,
    // "attached to a spring" is physics, not an attachment.
    String.raw`\battached\b(?!\s+to\b)`,
    String.raw`\b(?:see|check|in|on|refer to|look at) (?:the |my )?(?:attached |uploaded )?(?:photo|picture|image|scan|upload|file|pdf|sheet|page)s?\b`,
    // "see my working on paper, sheet 3": working handed in on paper.
    String.raw`\b(?:working|solution|calculations?)s?\s+(?:is\s+|are\s+)?(?:on|in)\s+(?:the\s+|my\s+|a\s+)?(?:exam\s+|answer\s+)?(?:paper|sheet|page|notebook|booklet)\b`,
    String.raw`\buploaded\b`,
    String.raw`\bscanned\b`,
    String.raw`\b(?:photo|picture|image|scan) of (?:my|the)\b`,
    String.raw`\bhandwritten\b`,
    String.raw`\.(?:jpe?g|png|pdf|heic|gif|webp|tiff?|docx?)\b`,
  ].join('|'),
  'i',
);

export function mentionsAttachment(text: string): boolean {
  return ATTACHMENT_RE.test(text);
}
