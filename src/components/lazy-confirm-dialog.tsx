import { lazy } from 'react';

/**
 * The confirmation dialog's code (Modal, focus trap, scroll lock), fetched when its button is
 * pointed at or focused rather than with the page: call on `onPointerEnter` and `onFocus`.
 */
export const loadConfirmDialog = () => import('./confirm-dialog');

/** ConfirmDialog, loaded on first use; render it inside Suspense, mounted only while open. */
export const LazyConfirmDialog = lazy(() => loadConfirmDialog().then((m) => ({ default: m.ConfirmDialog })));
