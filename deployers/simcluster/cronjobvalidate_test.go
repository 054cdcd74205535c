package simcluster

import "testing"

// cronJobTemplate is the job template of the CronJobs of cronJobCases.
const cronJobTemplate = "  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{name: c, image: busybox}]\n"

// cronJobCases are CronJobs written to a cluster, and kube-apiserver's
// answers, checked against a real one by TestRealClusterCronJobValidation.
// The descheduler's chart (kind CronJob, its default) passes its schedule
// value through as written: a schedule with seconds, or with the CRON_TZ
// prefix that robfig/cron accepts and that its README once showed, is
// refused; so is a release name that makes the CronJob's name longer than
// 52 characters (the chart truncates at 63).
var cronJobCases = []dataCase{
	{name: "cronjob", manifest: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj-ok}\nspec:\n  schedule: \"*/2 * * * *\"\n  timeZone: Europe/Berlin\n" + cronJobTemplate},
	{name: "cronjob-seconds", manifest: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj-seconds}\nspec:\n  schedule: \"0 */2 * * * *\"\n" + cronJobTemplate,
		want: `422 Invalid CronJob.batch "cj-seconds" is invalid: spec.schedule: Invalid value: "0 */2 * * * *": expected exactly 5 fields, found 6: [0 */2 * * * *]
cause FieldValueInvalid spec.schedule: Invalid value: "0 */2 * * * *": expected exactly 5 fields, found 6: [0 */2 * * * *]`},
	{name: "cronjob-cron-tz", manifest: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj-crontz}\nspec:\n  schedule: \"CRON_TZ=Europe/Berlin 0 3 * * *\"\n" + cronJobTemplate,
		want: `422 Invalid CronJob.batch "cj-crontz" is invalid: spec.schedule: Invalid value: "CRON_TZ=Europe/Berlin 0 3 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead
cause FieldValueInvalid spec.schedule: Invalid value: "CRON_TZ=Europe/Berlin 0 3 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead`},
	{name: "cronjob-time-zone", manifest: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj-tz}\nspec:\n  schedule: \"0 3 * * *\"\n  timeZone: Europe/Berlim\n" + cronJobTemplate,
		want: `422 Invalid CronJob.batch "cj-tz" is invalid: spec.timeZone: Invalid value: "Europe/Berlim": unknown time zone Europe/Berlim
cause FieldValueInvalid spec.timeZone: Invalid value: "Europe/Berlim": unknown time zone Europe/Berlim`},
	{name: "cronjob-bad-range", manifest: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj-range}\nspec:\n  schedule: \"0 25 * * *\"\n  successfulJobsHistoryLimit: -1\n" + cronJobTemplate,
		want: `422 Invalid CronJob.batch "cj-range" is invalid: [spec.schedule: Invalid value: "0 25 * * *": end of range (25) above maximum (23): 25, spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0]
cause FieldValueInvalid spec.schedule: Invalid value: "0 25 * * *": end of range (25) above maximum (23): 25
cause FieldValueInvalid spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0`},
	{name: "cronjob-long-name", manifest: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: platform-maintenance-descheduler-nightly-rebalance-job}\nspec:\n  schedule: \"0 3 * * *\"\n" + cronJobTemplate,
		want: `422 Invalid CronJob.batch "platform-maintenance-descheduler-nightly-rebalance-job" is invalid: metadata.name: Invalid value: "platform-maintenance-descheduler-nightly-rebalance-job": must be no more than 52 characters
cause FieldValueInvalid metadata.name: Invalid value: "platform-maintenance-descheduler-nightly-rebalance-job": must be no more than 52 characters`},
	{name: "cronjob-update-schedule", manifest: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj-update}\nspec:\n  schedule: \"0 3 * * *\"\n" + cronJobTemplate,
		update: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj-update}\nspec:\n  schedule: \"@every 2x\"\n" + cronJobTemplate,
		want: `422 Invalid CronJob.batch "cj-update" is invalid: spec.schedule: Invalid value: "@every 2x": failed to parse duration @every 2x: time: unknown unit "x" in duration "2x"
cause FieldValueInvalid spec.schedule: Invalid value: "@every 2x": failed to parse duration @every 2x: time: unknown unit "x" in duration "2x"`},
}

// TestCronJobValidation writes each of cronJobCases to a simulated
// cluster: the answers are kube-apiserver's.
func TestCronJobValidation(t *testing.T) {
	f := newFixture(t)
	f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: data}\n")
	for _, c := range cronJobCases {
		if got := outcome(writeDataCase(t, f.c, "data", c)); got != c.want {
			t.Errorf("%s:\ngot:  %s\nwant: %s", c.name, got, c.want)
		}
	}
}
