// Some browsers (Safari, older Firefox) start reading the object URL only after click() has
// returned; revoking it at once can fail the download. FileSaver.js waits 40 s for the same reason.
const REVOKE_AFTER_MS = 40_000;

/** Saves `blob` as a file called `fileName`, as a link with a `download` attribute does. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  // Firefox before 75 ignored a click on a link outside the document.
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
