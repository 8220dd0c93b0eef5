export interface SandboxedHtmlProps {
  /** A whole HTML document (or a fragment): shown as an email client would, never run. */
  html: string;
  /** The frame's accessible name, e.g. 'Email preview'. */
  title: string;
  /** Height in px; the reader scrolls inside the frame. */
  height?: number;
}

/**
 * User HTML in an iframe with an empty `sandbox`: no scripts, no forms, no same-origin access, no top
 * navigation (DESIGN §5). The page cannot read the frame's document, so the height is fixed rather than
 * measured.
 */
export function SandboxedHtml({ html, title, height = 520 }: SandboxedHtmlProps) {
  return (
    <iframe
      title={title}
      sandbox=""
      referrerPolicy="no-referrer"
      srcDoc={html}
      style={{ width: '100%', height, border: '1px solid #d1d5db', borderRadius: 8, background: '#fff', display: 'block' }}
    />
  );
}
