/** The widget's look, inside its shadow root: the page's CSS does not reach it, nor it the page. */
export const widgetStyles = `
:host { all: initial; }
* { box-sizing: border-box; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.launcher { position: fixed; right: 20px; bottom: 20px; z-index: 2147483646; padding: 10px 16px; border: 0; border-radius: 999px;
  background: #1d4ed8; color: #fff; font-size: 14px; font-weight: 600; cursor: pointer; box-shadow: 0 4px 14px rgba(15, 23, 42, .25); }
.launcher:hover { background: #1e40af; }
button:focus-visible, input:focus-visible, textarea:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.panel { position: fixed; right: 20px; bottom: 72px; z-index: 2147483647; width: min(360px, calc(100vw - 40px)); max-height: calc(100vh - 100px);
  overflow: auto; padding: 18px; border-radius: 12px; background: #fff; color: #0f172a; font-size: 14px; line-height: 1.45;
  box-shadow: 0 12px 40px rgba(15, 23, 42, .3); border: 1px solid #e2e8f0; }
.panel[hidden], .hint[hidden], .highlight[hidden] { display: none; }
h2 { margin: 0 0 12px; font-size: 17px; }
h3 { margin: 18px 0 8px; font-size: 14px; }
label { display: block; margin: 10px 0 4px; font-weight: 600; }
.optional { font-weight: 400; color: #475569; }
textarea, input { width: 100%; padding: 8px 10px; border: 1px solid #94a3b8; border-radius: 8px; font-size: 14px; color: #0f172a; background: #fff; }
textarea { min-height: 96px; resize: vertical; }
.row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin-top: 14px; }
.primary, .secondary { padding: 8px 14px; border-radius: 8px; font-size: 14px; font-weight: 600; cursor: pointer; }
.primary { border: 0; background: #1d4ed8; color: #fff; }
.primary:disabled { background: #64748b; cursor: progress; }
.secondary { border: 1px solid #94a3b8; background: #fff; color: #0f172a; }
.element { margin-top: 8px; padding: 6px 8px; border-radius: 6px; background: #f1f5f9; font-size: 12px; word-break: break-all; }
.element code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.error { color: #b91c1c; font-size: 13px; margin-top: 4px; }
.status { margin-top: 12px; min-height: 1.2em; }
.status.ok { color: #166534; }
.status.bad { color: #b91c1c; }
.thread { border-top: 1px solid #e2e8f0; padding: 8px 0; }
.badge { display: inline-block; margin-left: 6px; padding: 0 6px; border-radius: 999px; font-size: 12px; background: #e0e7ff; color: #3730a3; }
.badge.resolved { background: #dcfce7; color: #166534; }
.reply { margin: 6px 0 0 10px; padding-left: 8px; border-left: 3px solid #cbd5e1; }
.muted { color: #475569; font-size: 12px; }
.highlight { position: fixed; z-index: 2147483645; pointer-events: none; border: 2px solid #f59e0b; background: rgba(245, 158, 11, .15); border-radius: 3px; }
.hint { position: fixed; left: 50%; top: 16px; transform: translateX(-50%); z-index: 2147483647; padding: 8px 14px; border-radius: 8px;
  background: #0f172a; color: #fff; font-size: 14px; pointer-events: none; }
`;
