import { todoSession } from './_todomvc.js';

// TodoMVC's react example, client-rendered: the list exists only once its scripts ran.
export default todoSession();
