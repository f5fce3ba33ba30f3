/** Public entry of the feedback feature: the feedback form's schema, categories and mutation. */
export { FEEDBACK_CATEGORY_LABEL, feedbackSchema, useCreateFeedback } from './api/create-feedback';
