import { useRef, useState } from 'react';

/** A drop zone that also opens the file picker; hands over the file's text. */
export function FileDrop(props: { accept: string; label: string; hint?: string; onText(text: string, fileName: string): void; testId?: string }) {
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const take = async (f: File | undefined) => {
    if (f) props.onText(await f.text(), f.name);
  };
  return (
    <div
      className={`dropzone ${over ? 'over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        void take(e.dataTransfer.files[0]);
      }}
      onClick={() => input.current?.click()}
      role="button"
      tabIndex={0}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && input.current?.click()}
    >
      <div className="drop-label">{props.label}</div>
      <div className="muted small">{props.hint ?? 'Drop the file here, or click to choose it.'}</div>
      <input
        ref={input}
        type="file"
        accept={props.accept}
        hidden
        data-testid={props.testId}
        onChange={(e) => {
          void take(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </div>
  );
}
