package simcluster

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	_ "time/tzdata" // kube-apiserver embeds the zone database too: the answer does not depend on the machine's

	"github.com/robfig/cron/v3"
	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

// cronJobNameMax is the longest CronJob name kube-apiserver creates: the
// CronJob controller appends an 11-character suffix to it for its Jobs,
// whose names are DNS labels (63).
const cronJobNameMax = 63 - 11

// validTimeZoneComponent is kube-apiserver's rule for each component of a
// CronJob's timeZone (validTimeZoneCharacters in k8s.io/kubernetes
// pkg/apis/batch/validation).
var validTimeZoneComponent = regexp.MustCompile(`^[A-Za-z\.\-_0-9+]{1,14}$`)

// validateCronJob checks what kube-apiserver's validation of a batch/v1
// CronJob checks of its schedule, its time zone and its name (k8s.io/
// kubernetes pkg/apis/batch/validation: ValidateCronJobCreate,
// ValidateCronJobUpdate): the schedule is a standard five-field cron
// expression (robfig/cron's ParseStandard, as the API server parses it),
// carries no TZ or CRON_TZ (the timeZone field replaces it; an update may
// keep one the stored schedule has), the timeZone names a zone of the IANA
// database, and on create the name is at most 52 characters. The history
// limits and startingDeadlineSeconds may not be negative. old is the
// stored object, nil on create; obj of another kind is left alone. The job
// template is not validated.
func validateCronJob(old, obj runtime.Object) error {
	cj, ok := obj.(*batchv1.CronJob)
	if !ok {
		return nil
	}
	var oldSpec *batchv1.CronJobSpec
	if o, ok := old.(*batchv1.CronJob); ok {
		oldSpec = &o.Spec
	}
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if cj.Spec.Schedule == "" {
		errs = append(errs, field.Required(spec.Child("schedule"), ""))
	} else {
		allowTZ := oldSpec != nil && strings.Contains(oldSpec.Schedule, "TZ")
		errs = append(errs, validateSchedule(cj.Spec.Schedule, allowTZ, cj.Spec.TimeZone, spec.Child("schedule"))...)
	}
	if d := cj.Spec.StartingDeadlineSeconds; d != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(*d, spec.Child("startingDeadlineSeconds"))...)
	}
	if oldSpec == nil || !ptr.Equal(oldSpec.TimeZone, cj.Spec.TimeZone) {
		errs = append(errs, validateTimeZone(cj.Spec.TimeZone, spec.Child("timeZone"))...)
	}
	if l := cj.Spec.SuccessfulJobsHistoryLimit; l != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*l), spec.Child("successfulJobsHistoryLimit"))...)
	}
	if l := cj.Spec.FailedJobsHistoryLimit; l != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*l), spec.Child("failedJobsHistoryLimit"))...)
	}
	if old == nil && len(cj.Name) > cronJobNameMax {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), cj.Name, fmt.Sprintf("must be no more than %d characters", cronJobNameMax)))
	}
	if len(errs) > 0 {
		return apierrors.NewInvalid(batchv1.SchemeGroupVersion.WithKind("CronJob").GroupKind(), cj.Name, errs)
	}
	return nil
}

// validateSchedule is kube-apiserver's validateScheduleFormat.
func validateSchedule(schedule string, allowTZ bool, timeZone *string, fld *field.Path) field.ErrorList {
	var errs field.ErrorList
	if err := parseSchedule(schedule); err != nil {
		errs = append(errs, field.Invalid(fld, schedule, err.Error()))
	}
	hasTZ := strings.Contains(schedule, "TZ")
	switch {
	case allowTZ && hasTZ && timeZone != nil:
		errs = append(errs, field.Invalid(fld, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"))
	case !allowTZ && hasTZ:
		errs = append(errs, field.Invalid(fld, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
	}
	return errs
}

// parseSchedule parses schedule as the API server does
// (ParseCronScheduleWithPanicRecovery): robfig/cron panics on some inputs.
func parseSchedule(schedule string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("invalid schedule format: %v", r)
		}
	}()
	_, err = cron.ParseStandard(schedule)
	return err
}

// validateTimeZone is kube-apiserver's validateTimeZone of a CronJob.
func validateTimeZone(tz *string, fld *field.Path) field.ErrorList {
	if tz == nil {
		return nil
	}
	if *tz == "" {
		return field.ErrorList{field.Invalid(fld, tz, "timeZone must be nil or non-empty string")}
	}
	for _, part := range strings.Split(*tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !validTimeZoneComponent.MatchString(part) {
			return field.ErrorList{field.Invalid(fld, tz, "unknown time zone "+*tz)}
		}
	}
	var errs field.ErrorList
	if strings.EqualFold(*tz, "Local") {
		errs = append(errs, field.Invalid(fld, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"))
	}
	if _, err := time.LoadLocation(*tz); err != nil {
		errs = append(errs, field.Invalid(fld, tz, err.Error()))
	}
	return errs
}
