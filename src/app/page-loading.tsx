import { Center, Loader } from '@mantine/core';

/** While the first page's code downloads (later navigations keep the old page up meanwhile). */
export function PageLoading() {
  return (
    <Center py="xl" role="status">
      <Loader aria-label="Loading page" />
    </Center>
  );
}
