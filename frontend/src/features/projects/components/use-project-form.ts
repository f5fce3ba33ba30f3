import { useForm } from '@mantine/form';
import { zodValidate } from '@/lib/zod-form';
import { EMPTY_PROJECT, type ProjectFormValues, projectSchema } from '../api/project-schema';
import { type FieldGroup, GROUP_FIELDS } from './project-fields';

/** Mantine form of a project validated by projectSchema, plus a per-group validation for the wizard steps. */
export function useProjectForm(initial: ProjectFormValues = EMPTY_PROJECT) {
  const form = useForm<ProjectFormValues>({ initialValues: initial, validate: zodValidate(projectSchema) });
  /** Validates only the fields of the given groups; returns true when they are valid. */
  const validateGroups = (groups: readonly FieldGroup[]): boolean => {
    const all = zodValidate(projectSchema)(form.values);
    const fields = groups.flatMap((g) => GROUP_FIELDS[g] as readonly string[]);
    const errors = Object.fromEntries(Object.entries(all).filter(([k]) => fields.includes(k.split('.')[0]!)));
    form.setErrors(errors);
    return Object.keys(errors).length === 0;
  };
  return { form, validateGroups };
}
