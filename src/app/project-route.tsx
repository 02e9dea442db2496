// /projects/:project: one project's page, with the reports table of the reports list fixed to the
// project, and its Schedule where the server has schedules. Composed here because a feature never
// imports another. The table loads in its own chunk,
// started with this page: the project's overview above it is what a first visit shows first.
import { Suspense, lazy } from 'react';
import { useParams } from 'react-router-dom';
import { useCapabilities } from '@/api/capabilities';
import { LoadingRows } from '@/components/loading-rows';
import { RoleGate } from '@/components/role-gate';
import { ProjectPage } from '@/features/projects/project-page';

const ReportsView = lazy(() =>
  import('@/features/reports-list/reports-page').then((module) => ({ default: module.ReportsView })),
);
// Only where the server has schedules (capabilities), in a chunk of its own.
const ScheduleSection = lazy(() =>
  import('@/features/watch/schedule-section').then((module) => ({ default: module.ScheduleSection })),
);

function ProjectRoute() {
  // The router decodes the one path segment: any project name comes back as it was.
  const name = useParams().project ?? '';
  const { capabilities } = useCapabilities();
  return (
    <ProjectPage
      key={name}
      name={name}
      schedule={
        capabilities?.schedules ? (
          // Its form and Run now are all it has: a viewer is told why it is not there.
          <RoleGate what="change this project’s schedule">
            <Suspense fallback={<LoadingRows rows={2} height={56} label="Loading the schedule" />}>
              <ScheduleSection project={name} />
            </Suspense>
          </RoleGate>
        ) : null
      }
      reports={
        <Suspense fallback={<LoadingRows rows={5} height={40} label="Loading reports" />}>
          <ReportsView project={name} />
        </Suspense>
      }
    />
  );
}

export { ProjectRoute as Component };
