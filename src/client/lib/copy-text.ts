/** Copies text to the clipboard (secure pages only: https, or localhost while developing). */
export async function copyText(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
}
