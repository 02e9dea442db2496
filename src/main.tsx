// Styles first, so that every stylesheet imported later comes after Mantine's base.
import '@/app/styles';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from '@/api/query-client';
import { App } from '@/app/app';
import { createAppRouter } from '@/app/router';
import { applySignInLink } from '@/app/sign-in-link';
import { shareKeyAcrossTabs } from '@/api/http/tab-key-share';
import { knowMember } from '@/api/me';

// Before the router reads the address: the key must not linger in it for even one render.
const signedInByLink = applySignInLink();
// A tab opened from another (Ctrl-click on a report) gets its key from it, for this tab only.
shareKeyAcrossTabs();

const queryClient = createQueryClient();
// The router starts at once: the page's code, and its data alongside it (page-data.ts).
const router = createAppRouter(queryClient);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');

// Signed in by a link, the first page waits for who the key is (while its code and data load), so
// that a viewer never sees a control to change data on it: at most MEMBER_WAIT_MS.
const MEMBER_WAIT_MS = 1_000;
const memberKnown = signedInByLink
  ? Promise.race([knowMember(queryClient), new Promise((resolve) => setTimeout(resolve, MEMBER_WAIT_MS))])
  : null;

const render = () =>
  createRoot(container).render(
    <StrictMode>
      <App queryClient={queryClient} router={router} />
    </StrictMode>,
  );
if (memberKnown) void memberKnown.then(render);
else render();
