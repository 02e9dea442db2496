// A project's check settings saved, with their cache work: the project's settings show the answer
// at once, and every problem list (and what reads the settings) is asked again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { problemKeys, problemQueries, saveCheckSetting } from './problems';
import type { CheckSetting, CheckSettingInput } from './problems';

export function useSaveCheckSetting(project: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ check, input }: { check: string; input: CheckSettingInput }) =>
      saveCheckSetting(project, check, input),
    onSuccess: (saved) => {
      queryClient.setQueryData<CheckSetting[]>(problemQueries.settings(project).queryKey, (settings) => [
        ...(settings ?? []).filter((setting) => setting.check !== saved.check),
        saved,
      ]);
      return queryClient.invalidateQueries({ queryKey: problemKeys.all() });
    },
  });
}
