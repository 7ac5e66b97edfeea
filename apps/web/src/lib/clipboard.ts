import { notify } from './toast';

/** Copies `text` and says so in a toast: `copied` when it worked, `failed` when the browser refused. */
export async function copyWithToast(
  text: string,
  messages: { copied: string; failed: string },
): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(messages.copied);
  } catch {
    notify.error(messages.failed);
  }
}
