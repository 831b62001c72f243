/*
 * A JVMTI agent that counts every object the counting thread allocates between AllocationCounter.start()
 * and AllocationCounter.stop(): SetHeapSamplingInterval(0) makes the JVM post SampledObjectAlloc for each
 * allocation, interpreted or compiled (an allocation that C2's escape analysis removed is not made, so it is
 * not counted). Built and used by scripts/alloc-count.sh; see docs/parsing.md.
 */
#include <jvmti.h>
#include <string.h>
#include <stdio.h>

#define MAX_CLASSES 64

static jvmtiEnv *jvmti;
static jthread counting;            /* global ref of the thread being counted, NULL when not counting */
static long long objects, bytes;
static char names[MAX_CLASSES][128];
static long long counts[MAX_CLASSES], sizes[MAX_CLASSES];
static int classes;

static void JNICALL on_alloc(jvmtiEnv *env, JNIEnv *jni, jthread thread, jobject object, jclass klass, jlong size) {
  if (counting == NULL || !(*jni)->IsSameObject(jni, thread, counting)) {
    return;
  }
  objects++;
  bytes += size;
  char *signature = NULL;
  if ((*env)->GetClassSignature(env, klass, &signature, NULL) != JVMTI_ERROR_NONE) {
    return;
  }
  int i = 0;
  while (i < classes && strcmp(names[i], signature) != 0) {
    i++;
  }
  if (i == classes && classes < MAX_CLASSES) {
    strncpy(names[i], signature, sizeof names[i] - 1);
    classes++;
  }
  if (i < classes) {
    counts[i]++;
    sizes[i] += size;
  }
  (*env)->Deallocate(env, (unsigned char *) signature);
}

JNIEXPORT void JNICALL Java_dev_perflab_support_parse_AllocationCounter_start(JNIEnv *jni, jclass cls) {
  objects = bytes = 0;
  classes = 0;
  memset(counts, 0, sizeof counts);
  memset(sizes, 0, sizeof sizes);
  jthread self;
  (*jvmti)->GetCurrentThread(jvmti, &self);
  counting = (*jni)->NewGlobalRef(jni, self);
}

/* Stops counting and returns {objects, bytes, then per class: count, bytes} with the class names in names[]. */
JNIEXPORT jlongArray JNICALL Java_dev_perflab_support_parse_AllocationCounter_stop(JNIEnv *jni, jclass cls) {
  jthread was = counting;
  counting = NULL;
  (*jni)->DeleteGlobalRef(jni, was);
  jlong values[2 + 2 * MAX_CLASSES];
  values[0] = objects;
  values[1] = bytes;
  for (int i = 0; i < classes; i++) {
    values[2 + 2 * i] = counts[i];
    values[3 + 2 * i] = sizes[i];
  }
  jlongArray result = (*jni)->NewLongArray(jni, 2 + 2 * classes);
  (*jni)->SetLongArrayRegion(jni, result, 0, 2 + 2 * classes, values);
  return result;
}

JNIEXPORT jstring JNICALL Java_dev_perflab_support_parse_AllocationCounter_className(JNIEnv *jni, jclass cls, jint i) {
  return (*jni)->NewStringUTF(jni, i < classes ? names[i] : "");
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
  if ((*vm)->GetEnv(vm, (void **) &jvmti, JVMTI_VERSION_11) != JNI_OK) {
    return JNI_ERR;
  }
  jvmtiCapabilities capabilities;
  memset(&capabilities, 0, sizeof capabilities);
  capabilities.can_generate_sampled_object_alloc_events = 1;
  if ((*jvmti)->AddCapabilities(jvmti, &capabilities) != JVMTI_ERROR_NONE) {
    return JNI_ERR;
  }
  jvmtiEventCallbacks callbacks;
  memset(&callbacks, 0, sizeof callbacks);
  callbacks.SampledObjectAlloc = &on_alloc;
  (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof callbacks);
  (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL);
  (*jvmti)->SetHeapSamplingInterval(jvmti, 0);
  return JNI_OK;
}
