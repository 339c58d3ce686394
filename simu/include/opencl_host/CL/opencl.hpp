/* simu's declarations of the OpenCL C++ bindings (CL/opencl.hpp, CL/cl2.hpp, CL/cl.hpp).
 * Written for simu so that host code using the C++ wrapper parses without an OpenCL SDK: simu reads what a
 * program passes to cl::Kernel::setArg and cl::CommandQueue::enqueueNDRangeKernel; nothing here runs.  Calls
 * simu does not read take any arguments (generic members), and a result of unknown type converts to anything. */
#ifndef SIMU_CL_HPP
#define SIMU_CL_HPP

#include <CL/cl.h>

namespace cl {

typedef simu_cl_size_t size_type;

/* a value host code only passes on: converts to any type, takes any arguments */
struct simu_any {
    simu_any();
    template <typename... A> simu_any(const A &...);
    template <typename T> operator T() const;
    template <typename... A> simu_any operator()(const A &...) const;
    simu_any operator[](size_type) const;
};

/* an optional pointer argument: nullptr, a pointer, or nothing */
struct simu_optional {
    simu_optional();
    simu_optional(decltype(nullptr));
    template <typename T> simu_optional(T *);
};

class Error {
public:
    Error(cl_int err, const char *what = 0);
    cl_int err() const;
    const char *what() const;
};

/* an NDRange of 0 (NullRange: the implementation's choice), 1, 2 or 3 sizes */
class NDRange {
public:
    NDRange();
    NDRange(size_type size0);
    NDRange(size_type size0, size_type size1);
    NDRange(size_type size0, size_type size1, size_type size2);
    size_type dimensions() const;
    size_type size() const;
    operator const size_type *() const;
    const size_type *get() const;
    size_type *get();
};

static const NDRange NullRange;

struct LocalSpaceArg {
    size_type size_;
};
LocalSpaceArg Local(size_type size);

/* the objects: each wraps a handle, takes any construction arguments and answers any query */
#define SIMU_CL_OBJECT(Name, Handle)                                                   \
    Name();                                                                            \
    explicit Name(const Handle &handle, bool retain = false);                          \
    template <typename A0, typename... A> Name(const A0 &, const A &...);              \
    Handle operator()() const;                                                         \
    Handle &operator()();                                                              \
    Handle get() const;                                                                \
    template <cl_int Info> simu_any getInfo(cl_int *err = 0) const;                    \
    template <typename I, typename T> cl_int getInfo(I name, T *param) const;

class Platform {
public:
    SIMU_CL_OBJECT(Platform, cl_platform_id)
    static Platform getDefault(cl_int *err = 0);
    template <typename V> static cl_int get(V *platforms);
    template <typename T, typename V> cl_int getDevices(T type, V *devices) const;
};

class Device {
public:
    SIMU_CL_OBJECT(Device, cl_device_id)
    static Device getDefault(cl_int *err = 0);
};

class Context {
public:
    SIMU_CL_OBJECT(Context, cl_context)
    static Context getDefault(cl_int *err = 0);
};

class Event {
public:
    SIMU_CL_OBJECT(Event, cl_event)
    cl_int wait() const;
    template <typename... A> cl_int getProfilingInfo(const A &...) const;
    template <cl_int Info> simu_any getProfilingInfo(cl_int *err = 0) const;
    template <typename V> static cl_int waitForEvents(const V &events);
};

class UserEvent : public Event {
public:
    SIMU_CL_OBJECT(UserEvent, cl_event)
    cl_int setStatus(cl_int status);
};

class Memory {
public:
    SIMU_CL_OBJECT(Memory, cl_mem)
};

class Buffer : public Memory {
public:
    SIMU_CL_OBJECT(Buffer, cl_mem)
    template <typename... A> Buffer createSubBuffer(const A &...) const;
};

class Image : public Memory {
public:
    SIMU_CL_OBJECT(Image, cl_mem)
};
class Image1D : public Image {
public:
    SIMU_CL_OBJECT(Image1D, cl_mem)
};
class Image2D : public Image {
public:
    SIMU_CL_OBJECT(Image2D, cl_mem)
};
class Image3D : public Image {
public:
    SIMU_CL_OBJECT(Image3D, cl_mem)
};
class Image2DArray : public Image {
public:
    SIMU_CL_OBJECT(Image2DArray, cl_mem)
};

class ImageFormat : public cl_image_format {
public:
    ImageFormat();
    ImageFormat(cl_channel_order order, cl_channel_type type);
};

class Sampler {
public:
    SIMU_CL_OBJECT(Sampler, cl_sampler)
};

class Program {
public:
    SIMU_CL_OBJECT(Program, cl_program)
    template <typename... A> cl_int build(const A &...) const;
    template <typename... A> cl_int compile(const A &...) const;
    template <cl_int Info, typename D> simu_any getBuildInfo(const D &device, cl_int *err = 0) const;
    template <typename... A> cl_int getBuildInfo(const A &...) const;
    template <typename V> cl_int createKernels(V *kernels);
};

class Kernel {
public:
    Kernel();
    explicit Kernel(const cl_kernel &kernel, bool retain = false);
    Kernel(const Program &program, const char *name, cl_int *err = 0);
    template <typename S> Kernel(const Program &program, const S &name, cl_int *err = 0);
    cl_kernel operator()() const;
    cl_kernel &operator()();
    cl_kernel get() const;
    template <cl_int Info> simu_any getInfo(cl_int *err = 0) const;
    template <typename I, typename T> cl_int getInfo(I name, T *param) const;
    template <cl_int Info, typename D> simu_any getWorkGroupInfo(const D &device, cl_int *err = 0) const;
    template <typename... A> cl_int getWorkGroupInfo(const A &...) const;
    /* a kernel argument: a value (its bytes), a memory object, or cl::Local(bytes) */
    template <typename T> cl_int setArg(cl_uint index, const T &value);
    cl_int setArg(cl_uint index, size_type size, const void *value);
    template <typename... A> cl_int setSVMPointers(const A &...);
    Kernel clone();
};

class CommandQueue {
public:
    SIMU_CL_OBJECT(CommandQueue, cl_command_queue)
    static CommandQueue getDefault(cl_int *err = 0);
    /* a launch: offset, global size, local size (NullRange: the implementation's), events */
    cl_int enqueueNDRangeKernel(const Kernel &kernel, const NDRange &offset, const NDRange &global,
                                const NDRange &local = NullRange, simu_optional events = simu_optional(),
                                simu_optional event = simu_optional()) const;
    cl_int enqueueTask(const Kernel &kernel, simu_optional events = simu_optional(),
                       simu_optional event = simu_optional()) const;
    template <typename... A> cl_int enqueueReadBuffer(const A &...) const;
    template <typename... A> cl_int enqueueWriteBuffer(const A &...) const;
    template <typename... A> cl_int enqueueCopyBuffer(const A &...) const;
    template <typename... A> cl_int enqueueFillBuffer(const A &...) const;
    template <typename... A> cl_int enqueueReadImage(const A &...) const;
    template <typename... A> cl_int enqueueWriteImage(const A &...) const;
    template <typename... A> cl_int enqueueCopyImage(const A &...) const;
    template <typename... A> cl_int enqueueCopyBufferToImage(const A &...) const;
    template <typename... A> cl_int enqueueCopyImageToBuffer(const A &...) const;
    template <typename... A> void *enqueueMapBuffer(const A &...) const;
    template <typename... A> void *enqueueMapImage(const A &...) const;
    template <typename... A> cl_int enqueueUnmapMemObject(const A &...) const;
    template <typename... A> cl_int enqueueMarkerWithWaitList(const A &...) const;
    template <typename... A> cl_int enqueueBarrierWithWaitList(const A &...) const;
    cl_int flush() const;
    cl_int finish() const;
};

/* the free functions of the bindings */
template <typename... A> cl_int copy(const A &...);
template <typename... A> cl_int enqueueReadBuffer(const A &...);
template <typename... A> cl_int enqueueWriteBuffer(const A &...);
cl_int flush();
cl_int finish();

} /* namespace cl */

#undef SIMU_CL_OBJECT
#endif
