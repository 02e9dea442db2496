// A printed page is light whatever the scheme on screen (issue 48): while it prints, the root says
// light, so Mantine's variables and its components' dark-scheme rules give way to the light ones;
// afterwards the scheme on screen comes back. The print stylesheet (shell-layout.module.css) covers
// the variables too, for a print this script does not see.
import { subscribePrinting, isPrinting } from '@/components/use-printing';

const ATTRIBUTE = 'data-mantine-color-scheme';

/** Starts following prints; returns how to stop. */
export function lightWhilePrinting(root: HTMLElement = document.documentElement): () => void {
  let onScreen: string | null = null;
  const follow = () => {
    if (isPrinting()) {
      if (onScreen === null) onScreen = root.getAttribute(ATTRIBUTE) ?? 'light';
      root.setAttribute(ATTRIBUTE, 'light');
    } else if (onScreen !== null) {
      root.setAttribute(ATTRIBUTE, onScreen);
      onScreen = null;
    }
  };
  follow();
  return subscribePrinting(follow);
}
